# ObjectSpace.define_finalizer: the objects still alive at exit have their finalizers run after the
# at_exit handlers, each with its object's id, an object's callables in the order defined
# (CRuby 3.1 and 3.3.8 print the same).
# expect-stdout: main done
# expect-stdout: at_exit
# expect-stdout: lam true
# expect-stdout: second true
# expect-no-stdout: dropped
# expect-stdout: fin true
o = Object.new
id = o.object_id
ObjectSpace.define_finalizer(o, proc { |i| puts "fin #{i == id}" })
at_exit { puts "at_exit" }
x = Object.new
xid = x.object_id
ObjectSpace.define_finalizer(x, lambda { |i| puts "lam #{i == xid}" })
ObjectSpace.define_finalizer(x, proc { |i| puts "second #{i == xid}" })
y = Object.new
ObjectSpace.define_finalizer(y, proc { puts "dropped" })
ObjectSpace.undefine_finalizer(y)
puts "main done"
