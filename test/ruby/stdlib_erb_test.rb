# require "erb" as CRuby's: <% %>, <%= %>, <%# %>, <%% and %%>, the trim modes "-", "<>", ">"
# and "%", result(binding) seeing the caller's locals, self and instance variables,
# result_with_hash, errors reported at the template's line, def_method, and ERB::Util's h and u.
# Expected values are CRuby 3.1's.
require "erb"

class StdlibErbTest < MnTest::Case
  class Page
    def initialize = @title = "T"
    def render = ERB.new("<h1><%= @title %></h1>").result(binding)
  end

  def test_tags_and_locals_of_the_binding
    name = "World"
    items = [1, 2]
    t = ERB.new("Hello <%= name %>!\n<% items.each do |i| %>\n* <%= i %>\n<% end %>\n<%# comment %>done <%% x %%>\n")
    assert_equal "Hello World!\n\n* 1\n\n* 2\n\ndone <% x %%>\n", t.result(binding)
  end

  def test_self_and_instance_variables
    assert_equal "<h1>T</h1>", Page.new.render
  end

  def test_result_with_hash
    assert_equal "a=1, b=\"s\"", ERB.new("a=<%= a %>, b=<%= b.inspect %>").result_with_hash(a: 1, b: "s")
  end

  def test_trim_mode_dash
    items = [1, 2]
    tpl = "<% items.each do |i| -%>\n  <%- if i > 1 -%>\n  big <%= i %>\n  <%- end -%>\n<% end -%>\nend\n"
    assert_equal "  big 2\nend\n", ERB.new(tpl, trim_mode: "-").result(binding)
    assert_equal "x  y\n", ERB.new("x <%- 1 -%> y\n", trim_mode: "-").result
    assert_equal "\tyes\n", ERB.new("\t<%- if true -%>\n\tyes\n\t<%- end -%>\n", trim_mode: "-").result
  end

  def test_trim_mode_lt_gt
    items = [1, 2]
    tpl = "<% items.each do |i| %>\nline <%= i %>\n<% end %>\n"
    assert_equal "line 1\nline 2\n", ERB.new(tpl, trim_mode: "<>").result(binding)
    assert_equal "  \n1", ERB.new("  <% a = 1 %>\n<%= a %>", trim_mode: "<>").result
  end

  def test_trim_mode_gt
    items = [1, 2]
    tpl = "<% items.each do |i| %>\nline <%= i %> <% 1 %>\nx <%= 2 %> y\n<% end %>\n"
    assert_equal "line 1 x 2 y\nline 2 x 2 y\n", ERB.new(tpl, trim_mode: ">").result(binding)
    assert_equal "12", ERB.new("<%= 1 %>\n<%= 2 %>\n", trim_mode: ">").result
    assert_equal "a\r\nb1", ERB.new("a\r\nb<%= 1 %>\r\n", trim_mode: ">").result
  end

  def test_trim_mode_percent
    items = [1, 2]
    assert_equal "% 1\n% 2\nlast\n", ERB.new("% items.each do |i|\n%% <%= i %>\n% end\nlast\n", trim_mode: "%").result(binding)
    assert_equal "  big\n", ERB.new("% x = 3\n  <%- if x > 1 -%>\n  big\n  <%- end -%>\n", trim_mode: "%-").result
  end

  def test_no_trim_keeps_newlines
    assert_equal "after\n", ERB.new("<%# multi\nline %>after\n").result
  end

  def test_literal_text_is_not_interpolated
    assert_equal "a\\b \"q\" \#{x} \#@y \#$z", ERB.new("a\\b \"q\" \#{x} \#@y \#$z").result
    assert_equal "%>", ERB.new("<%= \"%%>\" %>").result
  end

  def test_errors_point_at_the_template_line
    e = assert_raise(NameError) { ERB.new("line1\n<%= nope %>").result }
    assert_equal "(erb):2", e.backtrace[0][/\(erb\):\d+/]
    t = ERB.new("a\n\nb <%= raise 'boom' %>")
    t.filename = "page.erb"
    e = assert_raise(RuntimeError) { t.result }
    assert_equal "page.erb:3", e.backtrace[0][/page\.erb:\d+/]
  end

  def test_def_method
    ERB.new("hi <%= @n %>").def_method(Page, "greet")
    pg = Page.new
    pg.instance_variable_set(:@n, 3)
    assert_equal "hi 3", pg.greet
  end

  def test_util
    assert_equal "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;", ERB::Util.h("<a href='x'>&\"</a>")
    assert_equal "a%20b%26c%2F%C3%A9-_.~", ERB::Util.url_encode("a b&c/é-_.~")
    assert_equal "1", ERB::Util.html_escape(1)
    assert_kind_of String, ERB.new("x").src
  end
end
