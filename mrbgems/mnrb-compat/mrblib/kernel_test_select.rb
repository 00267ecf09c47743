# Kernel#select (IO.select) and Kernel#test (CRuby's file tests by a one-letter command). CRuby's
# are private; built-in Ruby cannot make them so (README, method visibility).
module Kernel
  def select(*args) = IO.select(*args)

  # test(cmd, file1, file2 = nil): cmd a one-character String or its Integer code
  def test(*args)
    raise ArgumentError, "wrong number of arguments (given 0, expected 2..3)" if args.empty?
    cmd = args[0]
    cmd = cmd.is_a?(String) && !cmd.empty? ? cmd[0] : Integer.__mnrb_to_integer(cmd).chr
    if (m = __mnrb_test_method(cmd))
      raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 2)" if args.size != 2
      return File.__send__(m, args[1])
    end
    unless "=<>-".include?(cmd)
      raise ArgumentError, "unknown command '#{cmd}'"
    end
    raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 3)" if args.size != 3
    return File.identical?(args[1], args[2]) if cmd == "-"
    a = File.mtime(args[1])
    b = File.mtime(args[2])
    cmd == "=" ? a == b : cmd == "<" ? a < b : a > b
  end
  # the File method of a one-file command (a case, not a constant Hash: nothing made at boot)
  def __mnrb_test_method(cmd)
    case cmd
    when "A" then :atime
    when "b" then :blockdev?
    when "c" then :chardev?
    when "C" then :ctime
    when "d" then :directory?
    when "e" then :exist?
    when "f" then :file?
    when "g" then :setgid?
    when "G" then :grpowned?
    when "k" then :sticky?
    when "l" then :symlink?
    when "M" then :mtime
    when "o", "O" then :owned?
    when "p" then :pipe?
    when "r" then :readable?
    when "R" then :readable_real?
    when "s" then :size?
    when "S" then :socket?
    when "u" then :setuid?
    when "w" then :writable?
    when "W" then :writable_real?
    when "x" then :executable?
    when "X" then :executable_real?
    when "z" then :zero?
    end
  end
end
