# mnrb-io: managed I/O. mruby-io's and mruby-socket's blocking calls park the Ruby thread in mnrb's
# event loop or run without the GVL; Errno and SystemCallError. Sockets load at `require "socket"`
# (as in CRuby): mruby-socket is not a gem of the build but is compiled here, its C (socket.c and
# its constant table, copied into the build directory) as an object of this gem and its Ruby with
# lib/socket.rb as the "socket" feature (mnrb-require/feature_build.rb, src/socket.c).
require_relative "../mnrb-require/feature_build"

MRuby::Gem::Specification.new('mnrb-io') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb developers'
  spec.summary = "Managed I/O: mruby-io's and mruby-socket's blocking calls park the Ruby thread in mnrb's event loop, or run without the GVL; Errno and SystemCallError"
  spec.add_dependency('mruby-io', core: 'mruby-io')
  spec.add_dependency('mruby-pack', core: 'mruby-pack')          # mruby-socket's socket.rb
  spec.add_dependency('mnrb-thread')
  spec.add_dependency('mnrb-compat')                            # CRuby's implicit conversions
  spec.add_dependency('mnrb-require')                           # mnrb_feature.h
  spec.cc.include_paths << "#{dir}/../../core/include"

  mruby_socket = "#{MRUBY_ROOT}/mrbgems/mruby-socket"
  # socket.c with the constant table it includes, beside it: the build's rules compile it from here
  file "#{build_dir}/mruby_socket/socket.c" => %w(socket.c const.cstub).map { |f| "#{mruby_socket}/src/#{f}" } do |t|
    mkdir_p File.dirname(t.name)
    t.prerequisites.each { |f| cp f, File.dirname(t.name) }
  end
  spec.objs << objfile("#{build_dir}/mruby_socket/socket")
  MNRBFeatures.compile(spec, "mnrb_io", "socket" => ["#{mruby_socket}/mrblib/socket.rb", "socket"])
end
