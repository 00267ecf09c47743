# Stress: threads read and write pipes while other threads replace and clear the strings being written,
# interrupt readers with Thread#raise and kill them. Every record read by a reader that is never
# interrupted must be the next record written, byte for byte; a reader that is interrupted may lose
# records, but every byte it reads must be one the writers write (heap contents would show other bytes).
FINISH = ENV["STRESS_MODE"] == "finish"
srand(Integer(ENV.fetch("STRESS_SEED", "1")))
ALPHABET = "0123456789abcdef:\nB".bytes.uniq.freeze   # "B": what a writer's string may become mid-call
Interrupt18 = Class.new(StandardError)
Thread.report_on_exception = false   # an interrupt may land anywhere, also in a rescue clause: join reports

def record(seq) = format("%08x:%s\n", seq, (seq % 16).to_s(16) * (seq % 61 + 1))

def strict_pair(records)   # one writer, one reader, no interrupts: exact order and content
  r, w = IO.pipe
  writer = Thread.new do
    records.times do |i|
      s = record(i).dup
      meddler = Thread.new { s.replace("B" * s.size) rescue nil; s.clear rescue nil } if i % 7 == 0
      w.write(s) if meddler.nil?
      w.write(record(i)) if meddler   # a string handed to another thread is not ours to trust
      meddler&.join
    end
    w.close
  end
  reader = Thread.new do
    i = 0
    case rand(3)
    when 0 then while (line = r.gets); raise "CORRUPT gets #{line.inspect} != #{record(i).inspect}" unless line == record(i); i += 1; end
    when 1
      buf = +""
      while (chunk = r.read(rand(1..300))); buf << chunk; end
      expect = (0...records).map { |k| record(k) }.join
      raise "CORRUPT read: #{buf.bytesize} bytes, expected #{expect.bytesize}" unless buf == expect
      i = records
    else
      buf = +""
      loop { buf << r.readpartial(rand(1..500)) } rescue EOFError
      expect = (0...records).map { |k| record(k) }.join
      raise "CORRUPT readpartial: #{buf.bytesize} bytes, expected #{expect.bytesize}" unless buf == expect
      i = records
    end
    raise "CORRUPT: #{i} records of #{records}" unless i == records
    r.close
  end
  [writer, reader]
end

def loose_pair(duration_records)   # readers interrupted at random: bytes from the alphabet only
  r, w = IO.pipe
  writer = Thread.new do
    duration_records.times do |i|
      s = record(i).dup
      Thread.new { s.replace("B"); s.clear } if i.odd?
      begin
        w.write(s)
      rescue RuntimeError, IOError, Errno::EPIPE
      end
    end
    w.close rescue nil
  end
  readers = Array.new(3) do
    Thread.new do
      buf = +""
      begin
        loop do
          chunk = case rand(4)
                  when 0 then r.gets
                  when 1 then r.read(rand(1..200))
                  when 2 then r.sysread(rand(1..200), buf)
                  else r.readpartial(rand(1..200))
                  end
          break if chunk.nil?
          bad = chunk.bytes.find { |b| !ALPHABET.include?(b) }
          raise "CORRUPT byte #{bad} in #{chunk[0, 40].inspect}" if bad
        end
      rescue Interrupt18, EOFError, IOError, RuntimeError => e
        raise if e.message.start_with?("CORRUPT")
        retry unless r.closed? || e.is_a?(EOFError)
      end
    end
  end
  interrupter = Thread.new do
    20.times do
      t = readers.sample
      t.alive? && (rand < 0.8 ? t.raise(Interrupt18) : t.kill)
      Thread.pass
    end
  end
  [writer, interrupter, *readers]
end

puts "READY"
$stdout.flush
rounds = 0
loop do
  threads = []
  2.times { threads.concat(strict_pair(rand(50..400))) }
  threads.concat(loose_pair(rand(50..400)))
  threads.each do |t|
    t.join
  rescue Interrupt18
  end
  rounds += 1
  break if FINISH && rounds >= 15
end
puts "OK #{rounds} rounds"
