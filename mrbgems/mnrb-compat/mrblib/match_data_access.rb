# MatchData's accessors of CRuby 3.1-3.4 that mruby lacks: match and match_length (one group, by
# number or name, IndexError for a group the pattern does not have), deconstruct and
# deconstruct_keys for pattern matching (`case m in {year:}`), bytebegin and byteend (3.4).
class MatchData
  def match(n) = self[__mnrb_group(n)]

  def match_length(n)
    s = self[__mnrb_group(n)]
    s && s.length
  end

  def deconstruct = captures

  # nil: every named group; an Array of Symbols: those groups, stopping at the first the pattern
  # does not name (CRuby's rule; {} when more keys are asked for than there are names).
  def deconstruct_keys(keys)
    group_names = names
    if keys.nil?
      h = {}
      group_names.each { |name| h[name.to_sym] = self[name] }
      return h
    end
    raise TypeError, "wrong argument type #{__mnrb_type_name(keys)} (expected Array)" unless keys.is_a?(Array)
    h = {}
    return h if group_names.size < keys.size
    keys.each do |key|
      raise TypeError, "wrong argument type #{__mnrb_type_name(key)} (expected Symbol)" unless key.is_a?(Symbol)
      return h unless group_names.include?(key.name)
      h[key] = self[key.name]
    end
    h
  end

  def bytebegin(n) = byteoffset(n)[0]
  def byteend(n) = byteoffset(n)[1]

  private

  # a group's number (a name is checked to exist); IndexError outside 0...size
  def __mnrb_group(n)
    if n.is_a?(Symbol) || n.is_a?(String)
      raise IndexError, "undefined group name reference: #{n}" unless names.include?(n.to_s)
      return n.to_s
    end
    raise TypeError, "no implicit conversion from nil to integer" if n.nil?
    i = n.is_a?(Float) ? n.to_i : Integer(n)
    raise IndexError, "index #{i} out of matches" if i < 0 || i >= size
    i
  end

  def __mnrb_type_name(v) = v.nil? ? "nil" : v == true ? "true" : v == false ? "false" : v.class.to_s
end
