#!/usr/bin/env bash
# A payment with curl and openssl, from the demo credentials of `npm start`
# (the README's walkthrough, for bash or zsh; CI runs this file against the started service).
set -euo pipefail
CREDS=${CREDS:-./.data/demo-credentials.json}
PAYINS=${PAYINS:-http://localhost:3000}
# The demo merchant's credentials, written by the first npm start
KEY=$(node -p "require('$CREDS').merchant.apiKey")
SECRET=$(node -p "require('$CREDS').merchant.apiSecret")

# call METHOD ROUTE [BODY]: signs version 3 (RFC 9421 over the method, the path, the query and the body's digest) and sends it to the payins API
call() {
  local method=$1 route=$2 body=${3:-} path=${2%%\?*} base components params digest=''
  base="\"@method\": $method"$'\n'"\"@path\": $path"
  components='"@method" "@path"'
  if [[ $route == *\?* ]]; then base+=$'\n'"\"@query\": ?${route#*\?}"; components+=' "@query"'; fi
  if [ -n "$body" ]; then
    digest="sha-256=:$(printf '%s' "$body" | openssl dgst -sha256 -binary | base64):"
    base+=$'\n'"\"content-digest\": $digest"
    components+=' "content-digest"'
  fi
  params="($components);created=$(date +%s);nonce=\"$(openssl rand -hex 16)\";keyid=\"$KEY\";alg=\"hmac-sha256\""
  base+=$'\n'"\"@signature-params\": $params"
  local signature="pcs=:$(printf '%s' "$base" | openssl dgst -sha256 -hmac "$SECRET" -binary | base64):"
  if [ -n "$body" ]; then
    curl -s -X "$method" "$PAYINS$route" -H "Signature-Input: pcs=$params" -H "Signature: $signature" -H "Content-Digest: $digest" \
      -H 'content-type: application/json' --data-raw "$body"
  else
    curl -s -X "$method" "$PAYINS$route" -H "Signature-Input: pcs=$params" -H "Signature: $signature"
  fi
}
# field EXPRESSION: reads JSON on stdin and prints one value of it
field() { node -p "const it = JSON.parse(require('fs').readFileSync(0, 'utf8')); $1"; }

# 1. A payer
PAYER=$(call POST /payer '{"firstName":"Lucía","lastName":"Gómez","email":"lucia@example.uy"}' | field 'it.payerId')

# 2. A payment intent of 1,220.00 UYU (VAT included), waiting for a payment method
INTENT=$(call POST /payment-intent '{"currency":"UYU","amount":1220,"payinType":"DEFAULT","offSession":false,"country":"URY","externalReference":"order-1001","invoiceNumber":1001,"payerId":"'"$PAYER"'"}' \
  | field 'it.paymentIntent.paymentIntentId')

# 3. The methods the payer can use, and a Visa credit card among them
PROCESSOR=$(call GET /payment-intent/$INTENT/payment-methods \
  | field "it.paymentIntentAvailablePaymentMethods.find(m => m.paymentMethod.paymentMethodName === 'VISA' && m.paymentInstrumentType.paymentInstrumentTypeName === 'CREDIT_CARD').countryProcessorId")

# 4. Initialize at the gateway: the payer continues at gatewayUrl (the sandbox's page)
GATEWAY_URL=$(call POST /payment-intent/$INTENT/initialize '{"countryProcessorId":"'"$PROCESSOR"'"}' | field 'it.gatewayUrl')
echo "open $GATEWAY_URL and press Approve, or:"

# 5. Approve on the sandbox page (the form its Approve button sends)
curl -s -o /dev/null -X POST "$GATEWAY_URL" -d outcome=approve

# 6. The payment in the ledger: its fee (4.49 % + 22 % VAT on it), what the merchant keeps, and when it becomes available
call GET "/payin?status=APPROVED&limit=5" \
  | field 'it[0].results.map(p => [p.paymentIntentId, p.amount, p.status, "fee", p.feeAmount + p.feeTaxAmount, "net", p.netAmount, "available", p.liquidationDate].join(" ")).join("\n")'

# 7. The merchant's balance: the net is pending until that day
MERCHANT=$(node -p "require('$CREDS').merchant.merchantId")
call GET /merchant/$MERCHANT/balance | field 'it.balances.map(b => [b.currency, "pending", b.pending, "available", b.available].join(" ")).join("\n")'

# 8. Refund 200.50, then the rest (an empty body refunds all that is left)
call POST /payment-intent/$INTENT/refund '{"requestedRefundAmount":200.5}' | field 'it.paymentIntentStatus'
call POST /payment-intent/$INTENT/refund | field 'it.paymentIntentStatus'

# 9. The balance again: the refund drew on the payment's pending net first
call GET /merchant/$MERCHANT/balance | field 'it.balances.map(b => [b.currency, "pending", b.pending, "available", b.available].join(" ")).join("\n")'
