# require "un" (`mnrb -run -e cp -- -v a b`): CRuby's file commands for the command line, on
# FileUtils. Each command reads its options and operands from ARGV: cp [-prlv], ln [-sfv],
# mv [-v], rm [-rfv], mkdir [-pv], rmdir [-pv], install [-pv -m MODE -o OWNER -g GROUP],
# chmod [-v] MODE FILE..., touch [-v], help [COMMAND]. (httpd, mkmf and wait_writable are not here.)
require "fileutils"

module UN
  HELP = {
    "cp" => ["Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY", "[OPTION] SOURCE DEST",
             [["-p", "preserve file attributes if possible"], ["-r", "copy recursively"],
              ["-l", "make hard link instead of copying (implies -r)"], ["-v", "verbose"]]],
    "ln" => ["Create a link to the specified TARGET with LINK_NAME.", "[OPTION] TARGET LINK_NAME",
             [["-s", "make symbolic links instead of hard links"], ["-f", "remove existing destination files"], ["-v", "verbose"]]],
    "mv" => ["Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.", "[OPTION] SOURCE DEST", [["-v", "verbose"]]],
    "rm" => ["Remove the FILE", "[OPTION] FILE", [["-f", "ignore nonexistent files"], ["-r", "remove the contents of directories recursively"], ["-v", "verbose"]]],
    "mkdir" => ["Create the DIR, if they do not already exist.", "[OPTION] DIR", [["-p", "no error if existing, make parent directories as needed"], ["-v", "verbose"]]],
    "rmdir" => ["Remove the DIR.", "[OPTION] DIR", [["-p", "remove DIRECTORY and its ancestors."], ["-v", "verbose"]]],
    "install" => ["Copy SOURCE to DEST.", "[OPTION] SOURCE DEST",
                  [["-p", "apply access/modification times of SOURCE files to corresponding destination files"],
                   ["-m", "set permission mode (as in chmod), instead of 0755"], ["-o", "set owner, instead of the current owner"],
                   ["-g", "set group, instead of the current group"], ["-v", "verbose"]]],
    "chmod" => ["Change the mode of each FILE to OCTAL-MODE.", "[OPTION] OCTAL-MODE FILE", [["-v", "verbose"]]],
    "touch" => ["Update the access and modification times of each FILE to the current time.", "[OPTION] FILE", [["-v", "verbose"]]],
  }

  # ARGV's leading options (single letters, grouped or not; those in `valued` take the next word)
  # up to the first operand or "--": [{letter => true or value}, operands]
  def self.parse(flags, valued = "")
    opts = {}
    args = ARGV.dup
    while (a = args.first) && a.start_with?("-") && a != "-"
      args.shift
      break if a == "--"
      letters = a[1..].chars
      until letters.empty?
        c = letters.shift
        if valued.include?(c)
          opts[c] = letters.empty? ? args.shift : letters.join
          letters = []
        elsif flags.include?(c)
          opts[c] = true
        else
          abort "invalid option: -#{c}"
        end
      end
    end
    [opts, args]
  end

  def self.help_text(name)
    text, usage, opts = HELP.fetch(name)
    "#{text}\n\n  ruby -run -e #{name} -- #{usage}\n\n" + opts.map { |o, d| "  #{o.ljust(12)}#{d}\n" }.join + "\n"
  end
end

def cp
  o, a = UN.parse("prlv")
  dest = a.pop
  src = a.size == 1 ? a[0] : a
  if o["l"]
    FileUtils.cp_lr(src, dest, verbose: o["v"]) if FileUtils.respond_to?(:cp_lr)
  elsif o["r"]
    FileUtils.cp_r(src, dest, preserve: o["p"], verbose: o["v"])
  else
    FileUtils.cp(src, dest, preserve: o["p"], verbose: o["v"])
  end
end

def ln
  o, a = UN.parse("sfv")
  dest = a.pop
  src = a.size == 1 ? a[0] : a
  o["s"] ? FileUtils.ln_s(src, dest, force: o["f"], verbose: o["v"]) : FileUtils.ln(src, dest, force: o["f"], verbose: o["v"])
end

def mv
  o, a = UN.parse("v")
  dest = a.pop
  FileUtils.mv(a.size == 1 ? a[0] : a, dest, verbose: o["v"])
end

def rm
  o, a = UN.parse("rfv")
  o["r"] ? FileUtils.rm_r(a, force: o["f"], verbose: o["v"]) : FileUtils.rm(a, force: o["f"], verbose: o["v"])
end

def mkdir
  o, a = UN.parse("pv")
  o["p"] ? FileUtils.mkdir_p(a, verbose: o["v"]) : FileUtils.mkdir(a, verbose: o["v"])
end

def rmdir
  o, a = UN.parse("pv")
  FileUtils.rmdir(a, parents: o["p"], verbose: o["v"])
end

def install
  o, a = UN.parse("pv", "mog")
  dest = a.pop
  FileUtils.install(a.size == 1 ? a[0] : a, dest, mode: o["m"] && o["m"].oct, owner: o["o"], group: o["g"],
                    preserve: o["p"], verbose: o["v"])
end

def chmod
  o, a = UN.parse("v")
  mode = a.shift
  FileUtils.chmod(mode.match?(Regexp.new('\A[0-7]+\z')) ? mode.oct : mode, a, verbose: o["v"])
end

def touch
  o, a = UN.parse("v")
  FileUtils.touch(a, verbose: o["v"])
end

def help
  _, a = UN.parse("")
  names = a.empty? ? UN::HELP.keys : a
  names.each { |n| print UN.help_text(n), "\n" if UN::HELP.key?(n) }
end
