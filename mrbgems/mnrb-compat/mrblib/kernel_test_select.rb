# Kernel#select (IO.select) and Kernel#test (CRuby's file tests by a one-letter command), private
# methods of every object as in CRuby.
module Kernel
  def select(*args) = IO.select(*args)

  TEST_ONE_FILE = {
    "A" => :atime, "b" => :blockdev?, "c" => :chardev?, "C" => :ctime, "d" => :directory?,
    "e" => :exist?, "f" => :file?, "g" => :setgid?, "G" => :grpowned?, "k" => :sticky?,
    "l" => :symlink?, "M" => :mtime, "o" => :owned?, "O" => :owned?, "p" => :pipe?,
    "r" => :readable?, "R" => :readable_real?, "s" => :size?, "S" => :socket?, "u" => :setuid?,
    "w" => :writable?, "W" => :writable_real?, "x" => :executable?, "X" => :executable_real?,
    "z" => :zero?,
  }.freeze
  private_constant :TEST_ONE_FILE

  # test(cmd, file1, file2 = nil): cmd a one-character String or its Integer code
  def test(*args)
    raise ArgumentError, "wrong number of arguments (given 0, expected 2..3)" if args.empty?
    cmd = args[0]
    cmd = cmd.is_a?(String) && !cmd.empty? ? cmd[0] : Integer.__mnrb_to_integer(cmd).chr
    if (m = TEST_ONE_FILE[cmd])
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
  private :select, :test
end
