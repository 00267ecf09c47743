# Ractor.new's argument handling; everything else is in C (src/ractor.c).
class Ractor
  # CRuby's signature: the arguments are always copied (there is no move: for them).
  def self.new(*args, name: nil, **unknown, &block)
    unless unknown.empty?
      keys = unknown.keys.map(&:inspect).join(", ")
      raise ArgumentError, "unknown keyword#{'s' if unknown.size > 1}: #{keys}"
    end
    raise ArgumentError, "must be called with a block" unless block
    # CRuby 4.0's warning, at the process's first Ractor.new only (while the main ractor was alone)
    if __first?
      Kernel.warn("Ractor API is experimental and may change in future versions of Ruby.",
                  uplevel: 1, category: :experimental)
    end
    # the creator's autoloads go first (MNRB.run_ractor_block takes them off)
    __create(name, [(MNRB::Autoload.export if MNRB.const_defined?(:Autoload)), *args], &block)
  end

  # The block of Ractor.new runs with self = the new ractor, so `receive` there is this: it takes from
  # the current ractor's default port, whatever the receiver (private, as in CRuby).
  def receive
    Ractor.receive
  end
  alias recv receive

  # CRuby 4.0 requires the feature in the main ractor for the caller; mnrb requires it here (each
  # ractor its own heap) and lists it, so that a heap that meets one of its classes in a message
  # loads it too (src/required_features.c). The loader is called directly, not Kernel#require, which
  # a program may have overridden to call this.
  def self._require(feature)
    MNRB::Loader.require(feature)
  end

  def receive_if(&block)
    Ractor.receive_if(&block)
  end
  private :receive, :recv, :receive_if

end

module MNRB
  # Calls a new ractor's block (src/registry.c) from a Ruby frame, so that `return` in the block
  # raises LocalJumpError ("unexpected return") as in CRuby instead of ending the ractor with a value.
  # A method of MNRB, whose frames backtraces leave out (mruby's backtrace.c), and not of a module of
  # its own (MNRB::RactorBlock cost every ractor's heap a module and its singleton class, one more
  # object than MNRB's singleton class). `exit` in the ractor is the C side's (src/registry.c,
  # ractor_end).
  def self.run_ractor_block(block, args)
    $VERBOSE = args.shift   # the creator's, which src/ractor.c put first (CRuby: inherited)
    $DEBUG = args.shift
    autoloads = args.shift    # the creator's autoload table (mnrb-compat autoload.rb), or nil
    MNRB::Autoload.import(autoloads) if autoloads
    block.call(*args)
  end
end
