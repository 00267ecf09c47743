# io/console's IO methods as CRuby's, over src/console.c's termios calls (IO::ConsoleMode.__*).
# Every mode change that takes a block restores the terminal's previous mode in an ensure, so an
# exception (or Interrupt) leaves the terminal as it was. A descriptor that is not a terminal
# raises Errno::ENOTTY named after the IO, as CRuby's does.
class IO
  class ConsoleMode
    def initialize(bytes)
      @bytes = bytes
    end

    def __bytes = @bytes

    def initialize_copy(other)
      @bytes = other.__bytes.dup
    end

    def echo=(on)
      ConsoleMode.__echo(@bytes, on ? true : false)
      on
    end

    def raw!(min: nil, time: nil, intr: nil)
      ConsoleMode.__raw(@bytes, min, time && (time * 10).to_i, intr ? true : false)
      self
    end

    def raw(**opts)
      dup.raw!(**opts)
    end
  end

  def console_mode
    ConsoleMode.new(ConsoleMode.__getattr(fileno, __console_name))
  end

  def console_mode=(mode)
    raise TypeError, "not a console mode" unless mode.is_a?(ConsoleMode)
    ConsoleMode.__setattr(fileno, __console_name, mode.__bytes)
  end

  # raw(min: nil, time: nil, intr: nil) { |io| ... }: the block's value
  def raw(min: nil, time: nil, intr: nil)
    __console_with(->(t) { ConsoleMode.__raw(t, min, time && (time * 10).to_i, intr ? true : false) }) { yield self }
  end

  def raw!(min: nil, time: nil, intr: nil)
    __console_set { |t| ConsoleMode.__raw(t, min, time && (time * 10).to_i, intr ? true : false) }
  end

  def cooked
    __console_with(->(t) { ConsoleMode.__cooked(t) }) { yield self }
  end

  def cooked!
    __console_set { |t| ConsoleMode.__cooked(t) }
  end

  def noecho
    __console_with(->(t) { ConsoleMode.__echo(t, false) }) { yield self }
  end

  def echo=(on)
    __console_set { |t| ConsoleMode.__echo(t, on ? true : false) }
    on
  end

  def echo?
    ConsoleMode.__echo_p(ConsoleMode.__getattr(fileno, __console_name))
  end

  def getch(min: nil, time: nil, intr: nil)
    raw(min: min, time: time, intr: intr) { getc }
  end

  # getpass(prompt = nil): a line read without echo, chomped; the prompt and the newline go to
  # the write side (standard error when this is standard input)
  def getpass(prompt = nil)
    wio = self.equal?(STDIN) ? STDERR : self
    if prompt
      wio.write(prompt)
      wio.flush
    end
    begin
      line = noecho { gets }
    ensure
      wio.write("\n")
      wio.flush
    end
    line&.chomp
  end

  def winsize
    ConsoleMode.__winsize(fileno, __console_name)
  end

  def winsize=(size)
    size = size.to_ary
    unless size.size == 2 || size.size == 4
      raise ArgumentError, "wrong number of arguments (given #{size.size}, expected 2 or 4)"
    end
    rows, cols, xp, yp = size
    ConsoleMode.__set_winsize(fileno, __console_name, rows.to_int, cols.to_int, (xp || 0).to_int, (yp || 0).to_int)
    size
  end

  def iflush
    ConsoleMode.__flush(fileno, __console_name, 0)
    self
  end

  def oflush
    ConsoleMode.__flush(fileno, __console_name, 1)
    self
  end

  def ioflush
    ConsoleMode.__flush(fileno, __console_name, 2)
    self
  end

  def beep
    write("\a")
    self
  end

  # VT100 cursor and screen control, as CRuby's io/console writes it (a negative count moves the
  # other way, zero writes nothing); self
  def goto(line, column)
    write("\e[#{line.to_int + 1};#{column.to_int + 1}H")
    self
  end

  def goto_column(column)
    write("\e[#{column.to_int + 1}G")
    self
  end

  def cursor_up(n) = __console_move(-n.to_int, 0)
  def cursor_down(n) = __console_move(n.to_int, 0)
  def cursor_left(n) = __console_move(0, -n.to_int)
  def cursor_right(n) = __console_move(0, n.to_int)

  def erase_line(mode)
    mode = mode.to_int
    raise ArgumentError, "wrong line erase mode: #{mode}" unless (0..2).include?(mode)
    write("\e[#{mode}K")
    self
  end

  def erase_screen(mode)
    mode = mode.to_int
    raise ArgumentError, "wrong screen erase mode: #{mode}" unless (0..3).include?(mode)
    write("\e[#{mode}J")
    self
  end

  def clear_screen
    write("\e[2J\e[1;1H")
    self
  end

  def scroll_forward(n) = __console_scroll(n.to_int)
  def scroll_backward(n) = __console_scroll(-n.to_int)

  # IO.console: the process's terminal (/dev/tty, opened once, read-write, sync), nil without
  # one; IO.console(:close) closes it; IO.console(sym, *args) sends sym to it
  def self.console(sym = nil, *args)
    con = @__console
    if sym == :close
      con.close if con && !con.closed?
      @__console = nil
      return nil
    end
    if con.nil? || con.closed?
      con = begin
        File.open("/dev/tty", File::RDWR | File::NOCTTY)
      rescue SystemCallError
        nil
      end
      return nil unless con
      con.sync = true
      @__console = con
    end
    sym ? con.__send__(sym, *args) : con
  end

  private

  # the name CRuby's errors give the IO: its path, "<STDIN>" and the like, else none
  def __console_name
    return path if respond_to?(:path)
    s = inspect
    s.start_with?("#<IO:<") && s.end_with?(">>") ? s[5, s.size - 6] : nil
  end

  def __console_move(y, x)
    s = +""
    s << "\e[#{-y}A" if y < 0
    s << "\e[#{y}B" if y > 0
    s << "\e[#{x}C" if x > 0
    s << "\e[#{-x}D" if x < 0
    write(s) unless s.empty?
    self
  end

  def __console_scroll(n)
    write(n > 0 ? "\e[#{n}S" : "\e[#{-n}T") if n != 0
    self
  end

  def __console_set
    name = __console_name
    t = ConsoleMode.__getattr(fileno, name)
    yield t
    ConsoleMode.__setattr(fileno, name, t)
    self
  end

  def __console_with(change)
    name = __console_name
    saved = ConsoleMode.__getattr(fileno, name)
    t = saved.dup
    change.call(t)
    ConsoleMode.__setattr(fileno, name, t)
    begin
      yield
    ensure
      ConsoleMode.__setattr(fileno, name, saved)
    end
  end
end
