# Ractor.new's argument handling; everything else is in C (src/ractor.c).
class Ractor
  # CRuby's signature: the arguments are always copied (there is no move: for them).
  def self.new(*args, name: nil, **unknown, &block)
    unless unknown.empty?
      keys = unknown.keys.map(&:inspect).join(", ")
      raise ArgumentError, "unknown keyword#{'s' if unknown.size > 1}: #{keys}"
    end
    raise ArgumentError, "must be called with a block" unless block
    # the creator's autoloads go first (MNRB::RactorBlock.run takes them off)
    __create(name, [(MNRBAutoload.export if Object.const_defined?(:MNRBAutoload)), *args], &block)
  end

  # The block of Ractor.new runs with self = the new ractor, so `receive` there is this: it takes from
  # the current ractor's default port, whatever the receiver (private, as in CRuby).
  def receive
    Ractor.receive
  end
  alias recv receive

  def receive_if(&block)
    Ractor.receive_if(&block)
  end
  private :receive, :recv, :receive_if
end

module MNRB
  # Calls a new ractor's block (src/registry.c) from a Ruby frame, so that `return` in the block
  # raises LocalJumpError ("unexpected return") as in CRuby instead of ending the ractor with a value.
  #
  # `exit` in the ractor (or in one of its threads, whose SystemExit goes on in the ractor's main
  # thread) ends the ractor as an exception does: #value and #join raise Ractor::RemoteError whose
  # cause is the SystemExit (CRuby 4.0, Bug #21505). The ractor's end (src/registry.c) takes a
  # SystemExit for "no value", so it leaves wrapped in a plain Exception that src/ractor.c unwraps
  # (not a class of its own: every ractor's heap would hold it).
  module RactorBlock
    def self.run(block, args)
      $VERBOSE = args.shift   # the creator's, which src/ractor.c put first (CRuby: inherited)
      $DEBUG = args.shift
      autoloads = args.shift
      MNRBAutoload.import(autoloads) if autoloads
      block.call(*args)
    rescue SystemExit => e
      Thread.current.report_on_exception = false   # CRuby reports no SystemExit
      wrapper = Exception.new(e.message)
      wrapper.instance_variable_set(:@ractor_exit, e)
      wrapper.instance_variable_set(:@ractor_exit_status, e.status)   # SystemExit's is a hidden ivar (mnrb-compat): not copied
      raise wrapper
    end
  end
end
