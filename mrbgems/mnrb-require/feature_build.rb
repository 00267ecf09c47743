# Build side of mnrb_feature.h, for a gem's mrbgem.rake: compiles the gem's Ruby files that load at
# require (kept in lib/, out of mrblib/ which runs at boot) into static bytecode in
# build_dir/features_code.c, one top-level proc per feature named "#{prefix}_#{feature}", and adds
# it to the gem's objects. The gem's C registers each feature with mnrb_feature_on_demand.
#
#   require_relative "../mnrb-require/feature_build"
#   MNRBFeatures.compile(spec, "mnrb_net_http", "uri" => %w(uri), "net_http" => %w(a b))
module MNRBFeatures
  extend Rake::DSL

  def self.compile(spec, prefix, features)
    build = spec.build
    code = "#{spec.build_dir}/features_code.c"
    path = ->(f) { f.start_with?("/") ? f : "#{spec.dir}/lib/#{f}.rb" }   # lib/ name, or a whole path
    sources = features.values.flatten.map(&path)
    file code => [build.mrbcfile, __FILE__, *sources] do |t|
      mkdir_p File.dirname(t.name)
      File.open(t.name, "w") do |out|
        out.puts "/* Generated from lib/ by mnrb-require/feature_build.rb. */"
        out.puts "#pragma GCC diagnostic ignored \"-Wunused-function\"   /* each feature's empty *_init_syms */"
        features.each do |name, files|
          build.mrbc.run out, files.map(&path), "#{prefix}_#{name}", cdump: true, static: false
        end
      end
      # The bytecode is shared by every state: no symbol may need interning per state.
      text = File.read(t.name)
      if text.include?("mrb_intern")
        rm_f t.name
        fail "#{t.name}: lib/ uses a symbol outside the pre-interned table (a global variable?)"
      end
      # A library loaded at require is Ruby code as CRuby's lib/ is, not a built-in method: threads are
      # preempted in it and signals land in it. Its ireps carry the flag 0x80 (MNRB_IREP_LIB in
      # mnrb-thread/src/internal.h), which the safepoint reads; mrblib's (built-in) ireps do not.
      # Every irep, whatever other flags mrbc gave it (MRB_IREP_VCALLS: a body that calls `private`).
      marked = text.gsub(/MRB_IREP_STATIC((?:\|MRB_IREP_[A-Z_]+)*),/) { "MRB_IREP_STATIC#{$1}|0x80," }
      fail "#{t.name}: no static irep found to mark (mrbc's output changed?)" if marked == text && text.include?("mrb_irep")
      File.write(t.name, marked)
    end
    spec.objs << build.objfile("#{spec.build_dir}/features_code")
  end
end
