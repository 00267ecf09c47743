# kostya/benchmarks' generate_json shape (issue 22): N records (3 Floats, a String, a nested Hash)
# kept live in an Array, then JSON.generate; prints the seconds of each phase. mruby 3.3's GC made
# building them quadratic (patches/mruby/0043).   bin/mnrb bench/generate_json.rb [N]
require "json"
n = (ARGV[0] || 20000).to_i
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
data = []
n.times do
  data << { 'x' => rand, 'y' => rand, 'z' => rand,
            'name' => "#{('a'..'z').to_a.sample(6).join} #{rand(10_000)}",
            'opts' => { '1' => [1, true] } }
end
t1 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
s = JSON.generate({ 'coordinates' => data, 'info' => 'some info' })
t2 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
printf("build %.3f generate %.3f total %.3f (%d bytes)\n", t1 - t, t2 - t1, t2 - t, s.bytesize)
