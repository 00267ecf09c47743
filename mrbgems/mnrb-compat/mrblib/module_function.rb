# `module_function` with no arguments (CRuby): the methods defined after it in the module become
# module functions too (a copy as a singleton method, each time one is defined or redefined).
# mruby 3.3 records no method visibility and no definition scopes, so its module_function without
# arguments did nothing, and `Mod.helper` of the usual idiom raised NoMethodError. Here the mode
# is a method_added singleton method of the module itself (no other module pays for it), which
# also runs a method_added the module had before. Where mnrb differs: with no scope to end it, the
# mode lasts for the module's later bodies too (CRuby ends it at the body's `end` or at the next
# public/private: such a method just also gets a singleton copy here), and a method_added the
# module defines after it replaces it.
class Module
  alias __mnrb_module_function module_function

  def module_function(*names)
    unless names.empty?   # answers the name given, or the Array of them, as CRuby
      __mnrb_module_function(*names)
      return names.size == 1 ? names[0] : names
    end
    raise TypeError, "module_function must be called for modules" unless instance_of?(Module)
    sc = singleton_class
    own = sc.instance_methods(false)
    return nil if own.include?(:__mnrb_module_function_mode)
    sc.alias_method(:__mnrb_method_added_before_module_function, :method_added) if own.include?(:method_added)
    sc.class_eval do
      def __mnrb_module_function_mode = true

      def method_added(name)
        __mnrb_module_function(name)
        if respond_to?(:__mnrb_method_added_before_module_function)
          __mnrb_method_added_before_module_function(name)
        else
          super
        end
      end
    end
    nil
  end
end
