# require "yaml": Psych under the name YAML, as CRuby's yaml.rb does.
YAML = Psych
