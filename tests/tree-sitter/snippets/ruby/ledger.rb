# frozen_string_literal: true

require "json"
require_relative "ledger/entry"
require "bigdecimal/util"

# Accounting helpers shared by every ledger.
module Accounting
  # Default currency code.
  DEFAULT_CURRENCY = "EUR"

  # Something that can be summed.
  module Summable
    def sum_amounts
      entries.map(&:amount).sum
    end
  end

  # A ledger of entries in one currency.
  #
  # Entries are kept in insertion order.
  class Ledger < Base
    include Summable
    include Comparable
    extend Forwardable

    def_delegators :@entries, :size, :each

    # Creates an empty ledger.
    def initialize(currency = DEFAULT_CURRENCY)
      super()
      @currency = currency
      @entries = []
    end

    # Records one entry and returns self.
    def record(amount, memo: nil)
      entry = Entry.new(amount.to_d, memo)
      @entries << entry
      validate!(entry)
      self
    end

    def to_json(*args)
      JSON.generate({ currency: @currency, entries: @entries.map(&:to_h) }, *args)
    end

    # Parses a ledger from JSON text.
    def self.parse(text)
      data = JSON.parse(text)
      new(data.fetch("currency"))
    end

    private

    def validate!(entry)
      raise ArgumentError, "no amount" if entry.amount.nil?
    end
  end
end
