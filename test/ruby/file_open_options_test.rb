# File.new/File.open take CRuby's keyword options (helper compat3, mnrb-compat's
# file_open_options.rb): mode:, flags:, perm:, binmode:, encoding:/external_encoding: and an
# encoding suffix in the mode ("r:UTF-8", "r:bom|utf-8"); mruby-io's File took them as a Hash
# mode and raised TypeError. Checked on CRuby 3.1 and 3.3.8.
require "tmpdir"

class FileOpenOptionsTest < MnTest::Case
  def setup
    @dir = Dir.mktmpdir
    @path = File.join(@dir, "f")
  end

  def teardown
    Dir.children(@dir).each { |f| File.delete(File.join(@dir, f)) }
    Dir.rmdir(@dir)
  end

  def test_mode_keyword
    File.open(@path, mode: "w") { |f| f << "hi" }
    assert_equal "hi", File.read(@path)
    File.open(@path, flags: File::WRONLY | File::APPEND, mode: "a") { |f| f << "!" }
    assert_equal "hi!", File.read(@path)
    assert_equal "hi!", File.new(@path, mode: "r").read
  end

  def test_encoding_options
    File.write(@path, "hi")
    assert_equal "hi", File.open(@path, "r:UTF-8", &:read)
    assert_equal "hi", File.open(@path, "r:bom|utf-8", &:read)
    assert_equal Encoding::ASCII_8BIT, File.open(@path, mode: "r", binmode: true) { |f| f.read.encoding }
    assert_equal Encoding::ASCII_8BIT, File.open(@path, File::RDONLY, encoding: "ASCII-8BIT") { |f| f.read.encoding }
    assert_equal Encoding::ASCII_8BIT, File.new(@path, mode: "r", external_encoding: "BINARY").read.encoding
    assert_equal Encoding::UTF_8, File.open(@path, mode: "r", encoding: "UTF-8") { |f| f.read.encoding }
  end

  def test_perm
    File.open(@path, "w", perm: 0o640) { |f| f.puts "x" }
    assert_equal 0o640 & ~File.umask, File.stat(@path).mode & 0o777
    File.open(@path + "2", "w", 0o600) {}
    assert_equal 0o600 & ~File.umask, File.stat(@path + "2").mode & 0o777
  end

  def test_errors
    File.write(@path, "hi")
    assert_equal "mode specified twice", assert_raise(ArgumentError) { File.open(@path, "r", mode: "r") }.message
    assert_equal "both textmode and binmode specified",
                 assert_raise(ArgumentError) { File.open(@path, mode: "r", binmode: true, textmode: true) }.message
  end
end
