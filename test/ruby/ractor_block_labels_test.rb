# The frames of a Ractor's block are labelled as the block is where it was written, as CRuby labels
# them (checked on CRuby 3.3.8, whose labels are 3.3's: `block in m` where 3.4+ and mnrb write
# 'block in Object#m'), and __method__ in it is the method's name. Before sem20j mnrb labelled every
# Ractor block 'block in <main>' and its __method__ was nil.

def ractor_labels_in_method = Ractor.new { raise "m" }
def ractor_labels_nested = [1].map { Ractor.new { raise "n" } }.first
def ractor_labels_method_name = Ractor.new { __method__ }

class RactorLabelsClassBody
  R = Ractor.new { raise "k" }
end

RACTOR_LABELS_TOP = [1].map { Ractor.new { raise "t" } }.first

class RactorBlockLabelsTest < MnTest::Case
  def setup
    @report = Thread.report_on_exception
    Thread.report_on_exception = false       # the ractors' failures are the point
  end

  def teardown
    Thread.report_on_exception = @report
  end

  def new_labels? = mnrb? || RUBY_VERSION >= "3.4"

  def first_label(r)
    e = assert_raise(Ractor::RemoteError) { r.take }
    e.cause.backtrace.first[/in [`'](.*)'\z/, 1]
  end

  def test_a_block_in_a_method
    assert_equal new_labels? ? "block in Object#ractor_labels_in_method" : "block in ractor_labels_in_method",
                 first_label(ractor_labels_in_method)
  end

  def test_a_block_in_a_block_in_a_method
    assert_equal new_labels? ? "block (2 levels) in Object#ractor_labels_nested" : "block (2 levels) in ractor_labels_nested",
                 first_label(ractor_labels_nested)
  end

  def test_a_block_in_a_class_body
    assert_equal "block in <class:RactorLabelsClassBody>", first_label(RactorLabelsClassBody::R)
  end

  def test_a_block_in_a_block_at_the_top_level
    assert_equal "block (2 levels) in <main>", first_label(RACTOR_LABELS_TOP)
  end

  def test___method___is_the_method_s_name
    assert_equal :ractor_labels_method_name, ractor_labels_method_name.take
  end
end
