# File.new / File.open with CRuby's keyword options (helper compat3): mode: (a String such as "w",
# "rb", "r:UTF-8", or an Integer), flags: (OR'd into an Integer mode), perm:, binmode:, textmode:,
# encoding:/external_encoding:/internal_encoding: (ASCII-8BIT/BINARY make the file binary; the
# encodings, and a mode's, go on to File#initialize, where mnrb-encoding sets them up). mruby-io's File#initialize takes (path, mode, perm)
# positionally, so File.open(path, mode: "w") reached it as a Hash mode (TypeError).
# It wraps File.new (IO.open, File.open's, calls it) by an alias, not File#initialize (mnrb-io
# aliases initialize after this file runs: an alias of a prepended initialize would call itself)
# and not by prepending to File's singleton class (constants named in File's class methods would
# no longer be found through it).
class << File
  alias __mnrb_new_without_options new

  def new(path, *rest, **opts, &block)
    opts = rest.pop if opts.empty? && rest.size <= 2 && rest.last.is_a?(Hash)
    if opts.empty? && !(rest[0].is_a?(String) && rest[0].include?(":"))
      return __mnrb_new_without_options(path, *rest, &block)
    end
    mode, perm = rest
    if opts.key?(:mode)
      raise ArgumentError, "mode specified twice" if mode
      mode = opts[:mode]
    end
    perm ||= opts[:perm]
    binary = opts[:binmode] ? true : false
    raise ArgumentError, "both textmode and binmode specified" if binary && opts[:textmode]
    enc = opts[:external_encoding] || opts[:encoding]
    enc_kw = opts.slice(:encoding, :external_encoding, :internal_encoding)
    if mode.is_a?(String) && mode.include?(":")
      mode, enc_in_mode = mode.split(":", 2)
      raise ArgumentError, "encoding specified twice" if enc && enc_in_mode
      enc ||= enc_in_mode.split(":").first
    end
    if enc
      enc = enc.to_s.upcase
      enc = enc[4..] if enc.start_with?("BOM|")
      binary = true if enc == "ASCII-8BIT" || enc == "BINARY"
    end
    mode = __mnrb_open_flags(mode) | opts[:flags] if opts[:flags]
    mode ||= "r"
    mode += "b" if binary && mode.is_a?(String) && !mode.include?("b")
    # the encodings go on to File#initialize (mnrb-encoding's io_encoding.rb), which sets them up
    if enc_in_mode
      mode.is_a?(String) ? mode = "#{mode}:#{enc_in_mode}" : enc_kw[:encoding] = enc_in_mode
    end
    file = if enc_kw.empty?
             __mnrb_new_without_options(path, mode, perm || 0o666, &block)
           else
             __mnrb_new_without_options(path, mode, perm || 0o666, **enc_kw, &block)
           end
    file.binmode if binary && file.respond_to?(:binmode)
    file
  end

  # A mode String as open(2) flags, for flags: to be OR'd into.
  def __mnrb_open_flags(mode)
    return mode if mode.is_a?(Integer)
    case (mode || "r").delete("bt")
    when "r" then File::RDONLY
    when "r+" then File::RDWR
    when "w" then File::WRONLY | File::CREAT | File::TRUNC
    when "w+" then File::RDWR | File::CREAT | File::TRUNC
    when "a" then File::WRONLY | File::CREAT | File::APPEND
    when "a+" then File::RDWR | File::CREAT | File::APPEND
    else raise ArgumentError, "invalid access mode #{mode}"
    end
  end
  private :__mnrb_open_flags
end
