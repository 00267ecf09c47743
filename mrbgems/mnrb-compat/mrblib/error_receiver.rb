# NameError.new / NoMethodError.new / FrozenError.new take CRuby's receiver: keyword, which
# #receiver then answers (src/error_receiver.c keeps it; without it #receiver raises ArgumentError).

class NameError
  def initialize(message = nil, name = nil, receiver: (no_receiver = true; nil))
    @name = name
    __mnrb_receiver_set(receiver) unless no_receiver
    super(message)
  end
end

class NoMethodError
  def initialize(message = nil, name = nil, args = nil, priv = false, receiver: (no_receiver = true; nil))
    @args = args
    if no_receiver
      super(message, name)
    else
      super(message, name, receiver: receiver)
    end
  end
end

class FrozenError
  def initialize(message = nil, receiver: (no_receiver = true; nil))
    __mnrb_receiver_set(receiver) unless no_receiver
    super(message)
  end
end
