# Net::HTTPResponse and its classes by status code (CRuby's names), so that
# `response.is_a?(Net::HTTPSuccess)` and `case response when Net::HTTPNotFound` work.
module Net
  class HTTPError < ProtocolError
    attr_reader :response

    def initialize(message, response)
      super(message)
      @response = response
    end
  end
  class HTTPRetriableError < HTTPError; end
  class HTTPClientException < HTTPError; end
  class HTTPFatalError < HTTPError; end

  class HTTPResponse
    include HTTPHeader

    attr_reader :http_version, :code, :message
    alias msg message

    def initialize(http_version, code, message)
      @http_version = http_version
      @code = code
      @message = message
      @body = nil
      initialize_http_header(nil)
    end

    # The class for a status code: exact, else by its first digit, else HTTPUnknownResponse.
    def self.response_class(code)
      CODE_TO_OBJ[code] || CODE_CLASS_TO_OBJ[code[0]] || HTTPUnknownResponse
    end

    attr_writer :body

    def body
      @body
    end
    alias entity body

    # Whether a body follows the header in a response to `method` (RFC 9110 6.4.1).
    def body_permitted_for?(method)
      method != "HEAD" && self.class::HAS_BODY
    end

    def read_body
      yield @body if block_given? && @body
      @body
    end

    # Raises HTTPError (by status class) unless the response is a success, as CRuby's #value.
    def value
      error_type = self.class::EXCEPTION_TYPE
      raise error_type.new("#{@code} #{@message.inspect}", self) if error_type
      nil
    end

    def inspect
      "#<#{self.class} #{@code} #{@message} readbody=#{!@body.nil?}>"
    end
  end

  class HTTPUnknownResponse < HTTPResponse
    HAS_BODY = true
    EXCEPTION_TYPE = HTTPError
  end
  class HTTPInformation < HTTPResponse
    HAS_BODY = false
    EXCEPTION_TYPE = HTTPError
  end
  class HTTPSuccess < HTTPResponse
    HAS_BODY = true
    EXCEPTION_TYPE = nil
  end
  class HTTPRedirection < HTTPResponse
    HAS_BODY = true
    EXCEPTION_TYPE = HTTPRetriableError
  end
  class HTTPClientError < HTTPResponse
    HAS_BODY = true
    EXCEPTION_TYPE = HTTPClientException
  end
  class HTTPServerError < HTTPResponse
    HAS_BODY = true
    EXCEPTION_TYPE = HTTPFatalError
  end

  class HTTPResponse
    CODE_CLASS_TO_OBJ = {
      "1" => HTTPInformation, "2" => HTTPSuccess, "3" => HTTPRedirection,
      "4" => HTTPClientError, "5" => HTTPServerError,
    }
    CODE_TO_OBJ = {}
  end

  # [class name, code, superclass, has a body]
  [
    [:HTTPContinue, "100", HTTPInformation], [:HTTPSwitchProtocol, "101", HTTPInformation],
    [:HTTPOK, "200", HTTPSuccess], [:HTTPCreated, "201", HTTPSuccess],
    [:HTTPAccepted, "202", HTTPSuccess], [:HTTPNonAuthoritativeInformation, "203", HTTPSuccess],
    [:HTTPNoContent, "204", HTTPSuccess, false], [:HTTPResetContent, "205", HTTPSuccess, false],
    [:HTTPPartialContent, "206", HTTPSuccess],
    [:HTTPMultipleChoices, "300", HTTPRedirection], [:HTTPMovedPermanently, "301", HTTPRedirection],
    [:HTTPFound, "302", HTTPRedirection], [:HTTPSeeOther, "303", HTTPRedirection],
    [:HTTPNotModified, "304", HTTPRedirection, false], [:HTTPTemporaryRedirect, "307", HTTPRedirection],
    [:HTTPPermanentRedirect, "308", HTTPRedirection],
    [:HTTPBadRequest, "400", HTTPClientError], [:HTTPUnauthorized, "401", HTTPClientError],
    [:HTTPForbidden, "403", HTTPClientError], [:HTTPNotFound, "404", HTTPClientError],
    [:HTTPMethodNotAllowed, "405", HTTPClientError], [:HTTPRequestTimeout, "408", HTTPClientError],
    [:HTTPConflict, "409", HTTPClientError], [:HTTPGone, "410", HTTPClientError],
    [:HTTPLengthRequired, "411", HTTPClientError], [:HTTPPayloadTooLarge, "413", HTTPClientError],
    [:HTTPUnprocessableEntity, "422", HTTPClientError], [:HTTPTooManyRequests, "429", HTTPClientError],
    [:HTTPInternalServerError, "500", HTTPServerError], [:HTTPNotImplemented, "501", HTTPServerError],
    [:HTTPBadGateway, "502", HTTPServerError], [:HTTPServiceUnavailable, "503", HTTPServerError],
    [:HTTPGatewayTimeout, "504", HTTPServerError],
  ].each do |name, code, parent, has_body|
    klass = Class.new(parent)
    klass.const_set(:HAS_BODY, has_body) unless has_body.nil?
    const_set(name, klass)
    HTTPResponse::CODE_TO_OBJ[code] = klass
  end
end
