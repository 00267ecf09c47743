# require "erb": ERB templates as CRuby's. ERB.new(template, trim_mode: nil, eoutvar: "_erbout")
# compiles the template to Ruby source (#src) that appends to a String and returns it; #result(b)
# evals that source in binding b (its locals, self and instance variables are the template's),
# #result_with_hash(h) in a fresh binding whose locals are h's pairs, #run prints the result.
#
# Tags: <% code %>, <%= expr %> (expr.to_s), <%# comment %>; <%% is a literal "<%", and %%> in a
# tag a literal "%>". Trim modes: "-" (<%- drops the spaces before a tag that starts a line,
# -%> drops the newline after the tag), ">" (drops the newline after every line that ends
# with %>), "<>" (the same, only for lines that also start with <%), "%" (a line starting with
# % is Ruby code, %% there is a literal %); "%" combines with the others ("%-", "%<>", "%>").
# Each template newline stays a newline of the source, so errors point at the template's lines.
class ERB
  def self.version
    "4.0.4"
  end

  attr_reader :src, :encoding
  attr_accessor :filename, :lineno

  def initialize(str, legacy_safe = nil, legacy_trim = nil, legacy_eout = nil, trim_mode: nil, eoutvar: "_erbout")
    trim_mode ||= legacy_trim
    eoutvar = legacy_eout if legacy_eout
    @encoding = str.respond_to?(:encoding) ? str.encoding : nil
    @filename = nil
    @lineno = 0
    @src = ERB::Compiler.new(trim_mode).compile(str.to_s, eoutvar)
  end

  def result(b = ERB.__fresh_binding__)
    eval(@src, b, @filename || "(erb)", @lineno)
  end

  def result_with_hash(hash)
    b = ERB.__fresh_binding__
    hash.each_pair { |k, v| b.local_variable_set(k.to_sym, v) }
    result(b)
  end

  def run(b = ERB.__fresh_binding__)
    print result(b)
  end

  def def_method(mod, name, fname = "(ERB)")
    mod.module_eval("def #{name}\n#{@src}\nend\n", fname, 0)
  end

  def self.__fresh_binding__
    Object.new.instance_eval { binding }
  end

  # Template text to Ruby source; see the top of the file for the syntax.
  class Compiler
    def initialize(trim_mode)
      mode = trim_mode.to_s
      @percent = mode.include?("%")
      @dash = mode.include?("-")
      @gt = mode.include?(">") && !mode.include?("<>")
      @ltgt = mode.include?("<>")
    end

    def compile(str, out)
      @out = out
      @src = +"#{out} = ''.dup; "
      if @percent
        normal = +""
        str.each_line do |line|
          if line.start_with?("%%")
            normal << line[1..-1]
          elsif line.start_with?("%")
            scan(normal)
            normal = +""
            @src << line[1..-1].chomp << "\n"
          else
            normal << line
          end
        end
        scan(normal)
      else
        scan(str)
      end
      @src << "; #{out}"
    end

    private

    def scan(str)
      text = +""
      pos = 0
      while (open = str.index("<%", pos))
        text << str[pos...open]
        if str[open + 2] == "%"
          text << "<%"
          pos = open + 3
          next
        end
        kind = str[open + 2]
        body_start = open + 2
        if kind == "=" || kind == "#"
          body_start += 1
        elsif kind == "-" && @dash
          body_start += 1
          text.sub!(Regexp.new('(\A|\n)[ \t]*\z')) { |m| m.delete(" \t") }
          kind = "-"
        end
        close, body = find_close(str, body_start)
        if close.nil?
          body = str[body_start..-1]
          pos = str.size
        else
          pos = close + 2
        end
        drop_newline = false
        if @dash && body.end_with?("-") && close
          body = body[0...-1]
          drop_newline = true
        end
        flush_text(text)
        text = +""
        emit(kind, body)
        nl = str[pos] == "\n" ? 1 : (str[pos, 2] == "\r\n" ? 2 : 0)
        if nl > 0 && (drop_newline || @gt || (@ltgt && line_starts_with_tag?(str, open)))
          pos += nl
          @src << "\n"
        end
      end
      text << str[pos..-1].to_s
      flush_text(text)
    end

    def line_starts_with_tag?(str, at)
      nl = at.zero? ? nil : str.rindex("\n", at - 1)
      start = nl ? nl + 1 : 0
      str[start, 2] == "<%" && str[start, 3] != "<%%"
    end

    # The index of the %> that closes a tag whose body starts at from, and the body (with %%>
    # read as %>), or nil.
    def find_close(str, from)
      body = +""
      pos = from
      while (i = str.index("%>", pos))
        if i > from && str[i - 1] == "%"
          body << str[pos...(i - 1)] << "%>"
          pos = i + 2
        else
          body << str[pos...i]
          return [i, body]
        end
      end
      [nil, nil]
    end

    def emit(kind, body)
      case kind
      when "="
        @src << "#{@out}.<<((#{body}).to_s); "
      when "#"
        @src << ("\n" * body.count("\n"))
      else
        @src << body << "; "
      end
    end

    # Text as a string literal, one source line per template line.
    def flush_text(text)
      return if text.empty?
      text.each_line do |line|
        lit = line.gsub("\\") { "\\\\" }.gsub("\"") { "\\\"" }.gsub("#") { "\\#" }.gsub("\n") { "\\n" }
        @src << "#{@out}.<< \"#{lit}\".freeze; "
        @src << "\n" if line.end_with?("\n")
      end
    end
  end

  module Util
    URL_SAFE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.~".bytes
    HTML_ESCAPE = { "&" => "&amp;", "<" => "&lt;", ">" => "&gt;", "\"" => "&quot;", "'" => "&#39;" }

    def html_escape(s)
      s.to_s.gsub(Regexp.new("[&<>\"']")) { |c| HTML_ESCAPE[c] }
    end

    def url_encode(s)
      out = +""
      s.to_s.each_byte do |b|
        out << (URL_SAFE.include?(b) ? b.chr : format("%%%02X", b))
      end
      out
    end

    alias h html_escape
    alias u url_encode
    module_function :html_escape, :h, :url_encode, :u
  end
end
