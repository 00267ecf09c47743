# A ractor's boot names every built-in method as the main ractor's does, and its fresh heap pages
# hold proper free slots (issue 20, ractor creation; mruby patches 0110-0112). Each mnrb ractor is
# an mrb_state that boots every gem: the C names of its methods are interned through a process-wide
# cache of string addresses that a read-only name hits without comparing its text (0110), its method
# tables are filled by an inlined put (0112), and its heap pages are no longer zeroed before their
# slots are made free (0111). A wrong name from the cache, a lost or misplaced entry, or a slot that
# is neither a free one nor an object would show here as a ractor whose classes differ from main's.
# Ractor.new's definitions copy looks for the C methods it copies in the new class's own table
# (IO's origin: IO prepends MNRB::IOBinaryReads, whose read, gets... were found first and six methods
# defined again at every Ractor.new); aliases of IO's C methods made in main still reach a ractor.

class RactorBootNamesTest < MnTest::Case
  # Every module reachable from Object by constants (two levels), each with its instance methods,
  # singleton methods and constants, in a program of its own (a ractor of this test process would
  # also hold copies of the test library's classes); then the same list from ractors booted at once
  # (they fill and read the cache together) and one after another.
  PROGRAM = <<~'RUBY'
    def names
      seen = {}
      todo = [Object]
      out = []
      until todo.empty?
        m = todo.shift
        next if seen[m.__id__]
        seen[m.__id__] = true
        consts = begin
          m.constants(false)
        rescue NotImplementedError   # mruby's Module.constants
          []
        end
        # constants whose values a ractor can read (unshareable ones are left out of a ractor's
        # state: ARGV, reading them raises Ractor::IsolationError)
        values = consts.sort.filter_map do |c|
          v = m.const_get(c)
          [c, v] if v.is_a?(Module) || Ractor.shareable?(v)
        rescue StandardError   # Ractor::IsolationError
          nil
        end
        # a non-main ractor has a Module#instance_variable_defined? of its own (mnrb-ractor's
        # isolation.c: class-level ivars left out of its state)
        ims = m.instance_methods(false).sort - (m == Module ? [:instance_variable_defined?] : [])
        out << [m.name, ims, m.singleton_methods.sort, values.map(&:first)]
        if m == Object || m.name.count(":") < 2
          values.each { |_, v| todo << v if v.is_a?(Module) && v.name && !seen[v.__id__] }
        end
      end
      out.sort_by(&:first)
    end
    names                       # the first listing may load what constants autoload (CRuby)
    main = names
    rs = 4.times.map { Ractor.new { names } }
    later = Ractor.new { names }
    vals = rs.map { |r| r.respond_to?(:value) ? r.value : r.take }
    vals << (later.respond_to?(:value) ? later.value : later.take)
    bad = vals.each_with_index.flat_map do |v, i|
      (main - v).map { |m| "ractor #{i}: main has #{m[0]} #{m.inspect[0, 200]}" } +
        (v - main).map { |m| "ractor #{i}: has #{m[0]} #{m.inspect[0, 200]}" }
    end
    p [main.size, main.sum { |m| m[1].size + m[2].size }, bad.first(6)]
  RUBY

  def test_ractors_name_every_built_in_method_and_constant_as_main
    out = IO.popen([RbConfig.ruby, "-W0", "-e", PROGRAM], err: [:child, :out], &:read)
    assert out.lines.last.to_s.start_with?("["), out[-2000..] || out
    modules, methods, bad = eval(out.lines.last)
    assert_equal [], bad, out
    assert modules > 100, "only #{modules} modules listed"
    assert methods > 2000, "only #{methods} methods listed"
  end

  # A fresh ractor's heap: every slot is a free slot or an object (ObjectSpace counts each by its
  # type), before and after the heap grows by many pages, and the objects made in the new pages
  # read back after a collection.
  def test_fresh_heap_pages_hold_free_slots_and_objects
    r = Ractor.new do
      counts = ->(c) { [c[:TOTAL], c[:FREE] + c.sum { |k, v| k == :TOTAL || k == :FREE ? 0 : v }] }
      before = counts.(ObjectSpace.count_objects)
      keep = Array.new(20_000) { |i| "s#{i}" }
      grown = counts.(ObjectSpace.count_objects)
      GC.start
      after = counts.(ObjectSpace.count_objects)
      intact = keep.each_with_index.all? { |k, i| k == "s#{i}" }
      [before, grown, after, keep[12_345], keep.size, intact]
    end
    before, grown, after, s, n, many = r.respond_to?(:value) ? r.value : r.take
    [before, grown, after].each { |total, sum| assert_equal total, sum }
    assert grown[0] > before[0] + 15_000, "the heap grew from #{before[0]} to #{grown[0]} slots"
    assert_equal ["s12345", 20_000, true], [s, n, many]
  end

  # Aliases made in main of IO's own C methods (in IO's origin: IO prepends MNRB::IOBinaryReads) reach a
  # ractor, now that the copy looks in the origin's table first. (An alias of one of IOBinaryReads's
  # methods, read or gets, fails in mnrb's main ractor too: their `super` from IO finds nothing.)
  def test_aliases_of_io_c_methods_reach_a_ractor
    IO.alias_method(:__boot_names_write, :write)
    IO.alias_method(:__boot_names_fileno, :fileno)
    r = Ractor.new do
      rd, wr = IO.pipe
      n = wr.__boot_names_write("ab")
      wr.close
      [n, rd.read, rd.__boot_names_fileno == rd.fileno]
    end
    assert_equal [2, "ab", true], r.respond_to?(:value) ? r.value : r.take
  ensure
    IO.send(:remove_method, :__boot_names_write) rescue nil
    IO.send(:remove_method, :__boot_names_fileno) rescue nil
  end

  # A ractor's built-in classes and modules are named as the first boot named the class of their
  # number (mruby patch 0161: the names are kept once per process, not as an ivar table per class
  # and a path String per nested class in every ractor). Module#name, to_s, inspect and
  # interpolation of top-level and nested ones; constant lookup by path; a constant assigned an
  # already named class (it is not renamed); a dup'd or cloned one (anonymous until a constant
  # names it, the original keeping its name); classes defined below built-in ones after the boot
  # (their paths start with the outer's name), with the class keyword and const_set; an anonymous
  # module and its class named later by a constant of a built-in module; constants set in an
  # included module after the include (a built-in one and an anonymous one). The same in main, in a
  # ractor and in a ractor's ractor; each run names its own constants (the tag), the results read
  # with the tag as "T".
  CLASS_NAMES = <<~'RUBY'
      r = []
      GC.start
      r << [File::Stat, Process::Status, Errno::ENOENT, File::Constants, Math::DomainError, Comparable, Float,
            Struct, Encoding::CompatibilityError, FloatDomainError, IO::WaitReadable].map { |c| [c.name, c.to_s, c.inspect, "#{c}"] }
      r << Object.const_get("File::Stat").equal?(File::Stat) << Errno.const_get(:ENOENT).name << File.const_get(:Stat).name
      r << Math::DomainError.ancestors.take_while { |m| m != Object }.map(&:name)
      # a constant naming an already named class does not rename it
      Object.const_set(:"BootNamesAlias#{tag}", File::Stat)
      Process.const_set(:"BootNamesAlias#{tag}", Errno::EPIPE)
      r << Object.const_get(:"BootNamesAlias#{tag}").name << File::Stat.name << Process.const_get(:"BootNamesAlias#{tag}").name << Errno::EPIPE.name
      # a copy is anonymous until a constant names it; the original keeps its name
      d = Process::Status.dup
      r << d.name
      File.const_set(:"BootNamesCopy#{tag}", d)
      r << d.name << d.to_s << Process::Status.name << Process::Status.dup.name
      m = File::Constants.clone
      r << m.name << (m.to_s.start_with?("#<Module:") ? :anonymous : m.to_s)
      # classes defined below built-in ones after the boot
      class Process::Status::BootNamesK; class Deeper; end; end
      module Errno; class BootNamesE < SystemCallError; end; end
      File::Stat.const_set(:"BootNamesC#{tag}", Class.new)
      r << Process::Status::BootNamesK.name << Process::Status::BootNamesK::Deeper.inspect << Errno::BootNamesE.name
      r << File::Stat.const_get(:"BootNamesC#{tag}").name
      # anonymous outer, named later
      an = Module.new
      an.const_set(:Inner, Class.new)
      Errno.const_set(:"BootNamesAnon#{tag}", an)
      r << an.name << an::Inner.name
    # constants set after an include are seen through the including class: a built-in module's
    # (the include class shares the module's table) and an anonymous one's
    Comparable.const_set(:"BootNamesConst#{tag}", 5)
    r << Integer.const_get(:"BootNamesConst#{tag}") << [1, 2].index(2) << [4, 5].count
    anon = Module.new
    incl = Class.new { include anon }
    anon.const_set(:BootNamesK, 1)
    r << incl::BootNamesK << incl.const_get(:BootNamesK)
    Process::Status.prepend(Module.new)
    Process::Status.const_set(:"BootNamesP#{tag}", 7)
    r << Process::Status.const_get(:"BootNamesP#{tag}") << Class.new(Process::Status).const_get(:"BootNamesP#{tag}")
    r << Process::Status.name << Process::Status.ancestors.find { |a| a.name == "Process::Status" }.equal?(Process::Status)
      GC.start
      r << [File::Stat.name, Errno::ENOENT.name, Process::Status::BootNamesK::Deeper.name]
      r.inspect.gsub(tag, "T")
  RUBY

  def test_built_in_class_names_in_main_and_ractors
    program = <<~RUBY
      body = #{CLASS_NAMES.dump}
      take = ->(r) { r.respond_to?(:value) ? r.value : r.take }
      main = eval("tag = 'Main'\n" + body)
      r1 = take.(Ractor.new(body) { |b| eval("tag = 'Rone'\n" + b) })
      r2 = take.(Ractor.new(body) { |b| Ractor.new(b) { |c| eval("tag = 'Rtwo'\n" + c) }.take })
      p [main, r1, r2]
    RUBY
    out = IO.popen([RbConfig.ruby, "-W0", "-e", program], err: [:child, :out], &:read)
    assert out.lines.last.to_s.start_with?("["), out[-2000..] || out
    main, r1, r2 = eval(out.lines.last)
    builtins = [["File::Stat"] * 4, ["Process::Status"] * 4, ["Errno::ENOENT"] * 4, ["File::Constants"] * 4,
                ["Math::DomainError"] * 4, ["Comparable"] * 4, ["Float"] * 4, ["Struct"] * 4,
                ["Encoding::CompatibilityError"] * 4, ["FloatDomainError"] * 4, ["IO::WaitReadable"] * 4]
    expected = [builtins, true, "Errno::ENOENT", "File::Stat", ["Math::DomainError", "StandardError", "Exception"],
                "File::Stat", "File::Stat", "Errno::EPIPE", "Errno::EPIPE",
                nil, "File::BootNamesCopyT", "File::BootNamesCopyT", "Process::Status", nil, nil, :anonymous,
                "Process::Status::BootNamesK", "Process::Status::BootNamesK::Deeper", "Errno::BootNamesE",
                "File::Stat::BootNamesCT", "Errno::BootNamesAnonT", "Errno::BootNamesAnonT::Inner", 5, 1, 2, 1, 1,
                7, 7, "Process::Status", true,
                ["File::Stat", "Errno::ENOENT", "Process::Status::BootNamesK::Deeper"]]
    assert_equal expected, eval(main), "main"
    assert_equal expected, eval(r1), "a ractor"
    assert_equal expected, eval(r2), "a ractor's ractor"
  end
end
