# pstore: CRuby's PStore (`require "pstore"`), a Hash of roots kept in one file with Marshal,
# read and written in transactions; written from its documentation and behaviour.
#
#   store = PStore.new("data.pstore")
#   store.transaction { store[:count] = (store[:count] || 0) + 1 }   # written when the block ends
#   store.transaction(true) { store[:count] }                        # read-only: shared lock
#
# A transaction takes a lock on the file (flock: shared when read-only, exclusive otherwise), reads
# the whole table, and at its end writes it back if its bytes changed (an exception, or #abort,
# drops the changes; #commit ends the block early and keeps them). Outside a transaction every
# access raises PStore::Error; so does a nested one. thread_safe: true serializes transactions of
# one PStore between threads (CRuby 3.3's PStore always does: the flag is kept for the API).
class PStore
  VERSION = "0.1.3"

  class Error < StandardError; end

  RDWR_ACCESS = { mode: File::RDWR | File::CREAT | File::BINARY, external_encoding: Encoding::ASCII_8BIT }.freeze
  RD_ACCESS = { mode: File::RDONLY | File::BINARY, external_encoding: Encoding::ASCII_8BIT }.freeze
  WR_ACCESS = { mode: File::WRONLY | File::CREAT | File::TRUNC | File::BINARY, external_encoding: Encoding::ASCII_8BIT }.freeze

  EMPTY_MARSHAL_DATA = Marshal.dump({})
  NO_DEFAULT = Object.new.freeze
  private_constant :NO_DEFAULT

  attr_accessor :ultra_safe
  attr_reader :path

  def initialize(file, thread_safe = false)
    dir = File.dirname(file)
    raise Errno::ENOENT, dir unless File.directory?(dir)
    raise Errno::EISDIR, file if File.directory?(file)
    @filename = file
    @path = file
    @abort = false
    @ultra_safe = false
    @thread_safe = thread_safe
    @lock = Thread::Mutex.new
    @table = nil
    @rdonly = false
  end

  def [](key)
    in_transaction
    @table[key]
  end

  def fetch(key, default = NO_DEFAULT)
    in_transaction
    unless @table.key?(key)
      return default unless NO_DEFAULT.equal?(default)
      raise PStore::Error, format("undefined key `%s'", key)
    end
    @table[key]
  end

  def []=(key, value)
    in_transaction_wr
    @table[key] = value
  end

  def delete(key)
    in_transaction_wr
    @table.delete(key)
  end

  def roots
    in_transaction
    @table.keys
  end
  alias keys roots

  def root?(key)
    in_transaction
    @table.key?(key)
  end
  alias key? root?

  # Ends the transaction here, keeping its changes.
  def commit
    in_transaction
    @abort = false
    throw :pstore_abort_transaction
  end

  # Ends the transaction here, dropping its changes.
  def abort
    in_transaction
    @abort = true
    throw :pstore_abort_transaction
  end

  def transaction(read_only = false)
    value = nil
    raise PStore::Error, "nested transaction" if @table && (!@thread_safe || @lock.owned?)
    @lock.synchronize do
      @rdonly = read_only
      @abort = false
      file = open_and_lock_file(@filename, read_only)
      if file
        begin
          @table, checksum, original_data_size = load_data(file, read_only)
          catch(:pstore_abort_transaction) { value = yield(self) }
          if !@abort && !read_only
            save_data(checksum, original_data_size, file)
          end
        ensure
          file.close
        end
      else
        # a read-only transaction on a file that does not exist: an empty table, no file made
        @table = {}
        catch(:pstore_abort_transaction) { value = yield(self) }
      end
    ensure
      @table = nil
    end
    value
  end

  private

  def in_transaction
    raise PStore::Error, "not in transaction" unless @table
  end

  def in_transaction_wr
    in_transaction
    raise PStore::Error, "in read-only transaction" if @rdonly
  end

  def open_and_lock_file(filename, read_only)
    if read_only
      begin
        file = File.new(filename, **RD_ACCESS)
        file.flock(File::LOCK_SH)
        file
      rescue Errno::ENOENT
        nil
      end
    else
      file = File.new(filename, **RDWR_ACCESS)
      file.flock(File::LOCK_EX)
      file
    end
  end

  # [table, the bytes read (to compare at the end), their size]
  def load_data(file, read_only)
    data = file.read || ''.b
    if data.empty?
      [{}, EMPTY_MARSHAL_DATA, 0]
    else
      table = load(data)
      raise Error, "PStore file seems to be corrupted." unless table.is_a?(Hash)
      [table, data, data.bytesize]
    end
  end

  def save_data(original, original_data_size, file)
    new_data = dump(@table)
    return if new_data == original
    if @ultra_safe
      tmp = "#{@filename}.tmp"
      File.open(tmp, **WR_ACCESS) { |f| f.write(new_data) }
      File.rename(tmp, @filename)
    else
      file.rewind
      file.write(new_data)
      file.truncate(new_data.bytesize)
    end
  end

  # What YAML::Store and other subclasses replace.
  def dump(table)
    Marshal.dump(table)
  end

  def load(content)
    Marshal.load(content)
  end

  def empty_marshal_data
    EMPTY_MARSHAL_DATA
  end
end
