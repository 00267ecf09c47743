# io/console/size as CRuby's: IO.default_console_size (LINES and COLUMNS, else 25x80) and
# IO.console_size (the console's size, the default without a console).
def IO.default_console_size
  [
    ENV["LINES"].to_i.nonzero? || 25,
    ENV["COLUMNS"].to_i.nonzero? || 80,
  ]
end

def IO.console_size
  console.winsize
rescue NoMethodError
  default_console_size
end
