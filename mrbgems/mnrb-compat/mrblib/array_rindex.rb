# Array#rindex as CRuby's: rindex(obj) (mruby's C method), rindex { |x| ... } searching from the
# end, and rindex without either an Enumerator (mruby's took exactly one argument). An element
# removed by the block moves the search to the new end, as CRuby's loop does.
class Array
  alias __mnrb_rindex_obj rindex
  private :__mnrb_rindex_obj

  def rindex(*args, &block)
    raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 0..1)" if args.size > 1
    return __mnrb_rindex_obj(args[0]) if args.size == 1
    return to_enum(:rindex) unless block
    i = size
    while i > 0
      i -= 1
      n = size
      i = n - 1 if i >= n
      break if i < 0
      return i if yield(self[i])
    end
    nil
  end
end
