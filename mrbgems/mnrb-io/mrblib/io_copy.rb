# IO.copy_stream(src, dst, copy_length = nil, src_offset = nil): the number of bytes copied.
# src and dst are each an IO, a path (String or to_path) or an object that reads (readpartial or
# read) / writes (write), as CRuby's. The copy goes through IO#readpartial/#pread and #write, so each
# wait on a pipe, socket or slow file parks only this thread (mnrb's I/O paths, src/io_call.c).
class IO
  COPY_CHUNK = 16 * 1024

  def self.copy_stream(src, dst, copy_length = nil, src_offset = nil)
    copy_length = File._int_arg(copy_length) unless copy_length.nil?
    src_offset = File._int_arg(src_offset) unless src_offset.nil?
    close_src = close_dst = false
    if _copy_path?(src)
      src = File.open(File._stat_path(src), "rb")
      close_src = true
    end
    if _copy_path?(dst)
      dst = File.open(File._stat_path(dst), "wb")
      close_dst = true
    end
    raise ArgumentError, "cannot specify src_offset for non-IO" if src_offset && !src.is_a?(IO)
    _copy(src, dst, copy_length, src_offset)
  ensure
    src.close if close_src && src.is_a?(IO)
    dst.close if close_dst && dst.is_a?(IO)
  end

  def self._copy_path?(obj)
    obj.is_a?(String) || (!obj.is_a?(IO) && obj.respond_to?(:to_path))
  end

  def self._copy(src, dst, length, offset)
    copied = 0
    while length.nil? || copied < length
      want = length ? [COPY_CHUNK, length - copied].min : COPY_CHUNK
      chunk = _copy_read(src, want, offset && offset + copied)
      break if chunk.nil? || chunk.empty?
      dst.write(chunk)
      copied += chunk.bytesize
    end
    copied
  end

  # up to `want` bytes, or nil at the end
  def self._copy_read(src, want, at)
    return src.pread(want, at) if at
    if src.respond_to?(:readpartial)
      src.readpartial(want)
    else
      src.read(want)
    end
  rescue EOFError
    nil
  end
end
