# Exception#detailed_message and #full_message as CRuby 3.4's; the text is built in C
# (src/error_print.c), which cannot take keyword arguments: these methods check and pass them.
class Exception
  # The message as the error report shows it: "message (ClassName)" and the message's other lines.
  def detailed_message(highlight: false, **)
    unless highlight.nil? || highlight == true || highlight == false
      raise ArgumentError, "expected true or false as highlight: #{highlight.inspect}"
    end
    __detailed_message(highlight ? true : false)
  end

  # The report `ruby` prints for an uncaught exception, with the cause chain.
  def full_message(highlight: nil, order: nil, **)
    case highlight
    when nil   # a non-main ractor has no STDERR (CRuby: its $stderr is never the original: no colours)
      std = Object.const_defined?(:STDERR) && Object.const_get(:STDERR)
      highlight = std && $stderr.equal?(std) && std.respond_to?(:tty?) && std.tty? ? true : false
    when true, false
    else raise ArgumentError, "expected true or false as highlight: #{highlight.inspect}"
    end
    case order
    when nil then order = :top
    when :top, :bottom
    else raise ArgumentError, "expected :top or :bottom as order: #{order.inspect}"
    end
    __full_message(highlight, order)
  end

  private

  # The report's message line: detailed_message (a subclass may override it) with highlight.
  def __detailed_message_for_report(highlight)
    detailed_message(highlight: highlight)
  end
end
