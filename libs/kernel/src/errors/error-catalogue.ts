/**
 * The one catalogue of stable error codes. Each entry has the kind of failure
 * (which the HTTP layer maps to a status) and user-facing texts in English and
 * Spanish; `{name}` placeholders are filled from the error's parameters.
 *
 * Codes without a fixed area take the area of the API that answers (Payins or
 * B2B), so one domain rule reads naturally in both APIs.
 *
 * Long on purpose: one table, so that a code is never defined twice and a
 * translator reads every English and Spanish text side by side.
 */
export type ErrorKind =
  | 'INVALID'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'UNPROCESSABLE'
  | 'PAYLOAD_TOO_LARGE'
  | 'HEADERS_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'TOO_MANY_REQUESTS';

export interface ErrorDefinition {
  readonly code: string;
  readonly kind: ErrorKind;
  /** Fixed area; when absent the answering API's area is used. */
  readonly area?: 'Auth' | 'Validation' | 'Payins' | 'B2B';
  readonly en: string;
  readonly es: string;
  /** Parameters the error body carries as fields of their own (beside the texts), for clients to act on. */
  readonly fields?: readonly string[];
}

function define<const C extends string>(
  code: C,
  kind: ErrorKind,
  en: string,
  es: string,
  area?: ErrorDefinition['area'],
  fields?: readonly string[],
): ErrorDefinition & { code: C } {
  return { code, kind, en, es, area, ...(fields ? { fields } : {}) };
}

export const ERRORS = {
  UNAUTHORIZED: define(
    'UNAUTHORIZED',
    'UNAUTHORIZED',
    'The request could not be authenticated. Check the api-key and signature headers.',
    'No se pudo autenticar la solicitud. Revise los encabezados api-key y signature.',
    'Auth',
  ),
  SIGNATURE_VERSION_REQUIRED: define(
    'SIGNATURE_VERSION_REQUIRED',
    'UNAUTHORIZED',
    'This change moves money, secrets or records: sign it with version 3 (RFC 9421: Signature-Input and Signature over the method, the path, the query and the Content-Digest of the body).',
    'Este cambio mueve dinero, secretos o registros: fírmelo con la versión 3 (RFC 9421: Signature-Input y Signature sobre el método, la ruta, la consulta y el Content-Digest del cuerpo).',
    'Auth',
  ),
  FORBIDDEN: define(
    'FORBIDDEN',
    'FORBIDDEN',
    'This credential is restricted and may not do this ({scope} is not among its scopes).',
    'Esta credencial está restringida y no puede hacer esto ({scope} no está entre sus permisos).',
    'Auth',
  ),
  RATE_LIMITED: define(
    'RATE_LIMITED',
    'TOO_MANY_REQUESTS',
    'Too many requests. Nothing was changed; wait {retryAfter} s (the Retry-After header) and try again.',
    'Demasiadas solicitudes. No se modificó nada; espere {retryAfter} s (encabezado Retry-After) e intente nuevamente.',
    'Auth',
  ),
  INVALID_REQUEST: define(
    'INVALID_REQUEST',
    'INVALID',
    'The request is not valid. Check these fields: {fields}.',
    'La solicitud no es válida. Revise estos campos: {fields}.',
    'Validation',
  ),
  MALFORMED_JSON: define(
    'MALFORMED_JSON',
    'INVALID',
    'The request body is not valid JSON.',
    'El cuerpo de la solicitud no es un JSON válido.',
    'Validation',
  ),
  PAYLOAD_TOO_LARGE: define(
    'PAYLOAD_TOO_LARGE',
    'PAYLOAD_TOO_LARGE',
    'The request body is too large.',
    'El cuerpo de la solicitud es demasiado grande.',
    'Validation',
  ),
  JSON_TOO_DEEP: define(
    'JSON_TOO_DEEP',
    'INVALID',
    'The request body is nested too deeply (at most {maxDepth} levels of objects and arrays).',
    'El cuerpo de la solicitud tiene demasiados niveles anidados (como máximo {maxDepth} niveles de objetos y listas).',
    'Validation',
  ),
  HEADERS_TOO_LARGE: define(
    'HEADERS_TOO_LARGE',
    'HEADERS_TOO_LARGE',
    'The request headers are too large.',
    'Los encabezados de la solicitud son demasiado grandes.',
    'Validation',
  ),
  MALFORMED_REQUEST: define(
    'MALFORMED_REQUEST',
    'INVALID',
    'The request is not well-formed HTTP.',
    'La solicitud no es HTTP bien formado.',
    'Validation',
  ),
  UNSUPPORTED_MEDIA_TYPE: define(
    'UNSUPPORTED_MEDIA_TYPE',
    'UNSUPPORTED_MEDIA_TYPE',
    'The request body must be sent as application/json.',
    'El cuerpo de la solicitud debe enviarse como application/json.',
    'Validation',
  ),
  CARD_DATA_NOT_ACCEPTED: define(
    'CARD_DATA_NOT_ACCEPTED',
    'INVALID',
    'Card numbers and security codes are not accepted here: {fields}. Enter card details only on the payment page.',
    'Aquí no se aceptan números de tarjeta ni códigos de seguridad: {fields}. Ingrese los datos de la tarjeta solo en la página de pago.',
    'Validation',
  ),
  ROUTE_NOT_FOUND: define(
    'ROUTE_NOT_FOUND',
    'NOT_FOUND',
    'There is no operation at this address.',
    'No existe ninguna operación en esta dirección.',
  ),
  INTERNAL_ERROR: define(
    'INTERNAL_ERROR',
    'INTERNAL',
    'Something went wrong on our side. Please try again later.',
    'Algo salió mal de nuestro lado. Por favor, intente nuevamente más tarde.',
  ),
  GATEWAY_ACCOUNT_NOT_FOUND: define(
    'GATEWAY_ACCOUNT_NOT_FOUND',
    'NOT_FOUND',
    'This merchant has no {provider} account connected.',
    'Este comercio no tiene una cuenta de {provider} conectada.',
  ),
  OFF_SESSION_NOT_SUPPORTED: define(
    'OFF_SESSION_NOT_SUPPORTED',
    'INVALID',
    'This payment method is collected through {provider}, which does not charge saved instruments here yet: the payer must pay at the checkout (initialize the payment intent).',
    'Este medio de pago se cobra a través de {provider}, que todavía no cobra medios guardados aquí: el pagador debe pagar en el checkout (inicialice la intención de pago).',
  ),
  OFF_SESSION_NOT_AVAILABLE: define(
    'OFF_SESSION_NOT_AVAILABLE',
    'CONFLICT',
    'The merchant’s {provider} account does not charge saved cards without the payer (its automatic payments are not enabled): set offSessionEnabled on the account once {provider} has enabled them, or have the payer pay at the checkout.',
    'La cuenta de {provider} del comercio no cobra tarjetas guardadas sin el pagador (sus pagos automáticos no están habilitados): active offSessionEnabled en la cuenta cuando {provider} los habilite, o que el pagador pague en el checkout.',
  ),
  PAYER_DOCUMENT_REQUIRED: define(
    'PAYER_DOCUMENT_REQUIRED',
    'INVALID',
    '{provider} needs the payer’s name, e-mail and identity document to collect this payment: {reason}.',
    '{provider} necesita el nombre, el e-mail y el documento de identidad del pagador para cobrar este pago: {reasonEs}.',
  ),
  INSTALLMENTS_NOT_QUOTED: define(
    'INSTALLMENTS_NOT_QUOTED',
    'INVALID',
    '{provider} does not quote installments for this card and amount: {reason}.',
    '{provider} no cotiza cuotas para esta tarjeta y este monto: {reason}.',
  ),
  INSTALLMENT_PLAN_NOT_OFFERED: define(
    'INSTALLMENT_PLAN_NOT_OFFERED',
    'INVALID',
    'A plan of {installments} installments is not offered for this payment (offered: {offered}).',
    'No se ofrece un plan de {installments} cuotas para este pago (se ofrecen: {offered}).',
  ),
  INSTALLMENTS_CHOSEN_AT_PROCESSOR: define(
    'INSTALLMENTS_CHOSEN_AT_PROCESSOR',
    'INVALID',
    '{provider} lets the payer choose the installments on its own page: initialize without installments.',
    '{provider} permite al pagador elegir las cuotas en su propia página: inicialice sin cuotas.',
  ),
  ROUTING_PROCESSOR_NOT_CONNECTED: define(
    'ROUTING_PROCESSOR_NOT_CONNECTED',
    'INVALID',
    'routing[{rule}]: the merchant is not connected to {provider}; connect its account first.',
    'routing[{rule}]: el comercio no está conectado a {provider}; conecte primero su cuenta.',
  ),
  ROUTING_PROCESSORS_EMPTY: define(
    'ROUTING_PROCESSORS_EMPTY',
    'INVALID',
    'routing[{rule}].processors: name at least one processor, each once.',
    'routing[{rule}].processors: indique al menos un procesador, cada uno una vez.',
  ),
  ROUTING_SPLIT_MISMATCH: define(
    'ROUTING_SPLIT_MISMATCH',
    'INVALID',
    'routing[{rule}].split: give one whole weight from 1 to 100 for each of the {count} processors.',
    'routing[{rule}].split: indique un peso entero de 1 a 100 para cada uno de los {count} procesadores.',
  ),
  ROUTING_AMOUNT_RANGE_INVERTED: define(
    'ROUTING_AMOUNT_RANGE_INVERTED',
    'INVALID',
    'routing[{rule}]: minAmount must not exceed maxAmount.',
    'routing[{rule}]: minAmount no debe superar a maxAmount.',
  ),
  ROUTING_RULE_INVALID: define('ROUTING_RULE_INVALID', 'INVALID', 'routing: {reason}', 'routing: {reasonEs}'),
  PROCESSOR_ANSWER_UNREADABLE: define(
    'PROCESSOR_ANSWER_UNREADABLE',
    'UNAVAILABLE',
    'The payment processor answered an amount that cannot be read exactly ({detail}). Nothing was booked from it; what it did is asked again later.',
    'El procesador de pagos respondió un monto que no se puede leer con exactitud ({detail}). No se registró nada a partir de él; lo que hizo se le vuelve a consultar más tarde.',
  ),
  GATEWAY_UNREACHABLE: define(
    'GATEWAY_UNREACHABLE',
    'UNAVAILABLE',
    'The payment processor could not be reached. Nothing was changed; please try again shortly.',
    'No se pudo contactar al procesador de pagos. No se modificó nada; intente nuevamente en unos momentos.',
  ),
  SERVICE_UNAVAILABLE: define(
    'SERVICE_UNAVAILABLE',
    'UNAVAILABLE',
    'The service cannot reach its database right now. Nothing was changed; please try again in a few seconds.',
    'El servicio no puede acceder a su base de datos en este momento. No se modificó nada; intente nuevamente en unos segundos.',
  ),
  AUDIT_UNAVAILABLE: define(
    'AUDIT_UNAVAILABLE',
    'UNAVAILABLE',
    'The change could not be recorded in the audit log, so it was not made. Please try again in a few seconds.',
    'No se pudo registrar el cambio en el registro de auditoría, por lo que no se realizó. Intente nuevamente en unos segundos.',
  ),
  MERCHANT_REQUIRED: define(
    'MERCHANT_REQUIRED',
    'INVALID',
    'Say which merchant this request is for: send merchantId.',
    'Indique para qué comercio es esta solicitud: envíe merchantId.',
  ),
  MERCHANT_NOT_FOUND: define('MERCHANT_NOT_FOUND', 'NOT_FOUND', 'The merchant was not found.', 'No se encontró el comercio.'),
  MERCHANT_INVALID_STATE: define(
    'MERCHANT_INVALID_STATE',
    'CONFLICT',
    'The merchant cannot do this in its current status ({status}).',
    'El comercio no puede realizar esta acción en su estado actual ({status}).',
  ),
  MERCHANT_NOT_ACTIVE: define(
    'MERCHANT_NOT_ACTIVE',
    'CONFLICT',
    'The merchant is not active yet, so it cannot collect payments.',
    'El comercio todavía no está activo, por lo que no puede cobrar.',
  ),
  ERROR_IN_UPDATE_MERCHANT: define(
    'ERROR_IN_UPDATE_MERCHANT',
    'INVALID',
    'The merchant could not be updated: {reason}.',
    'No se pudo actualizar el comercio: {reasonEs}.',
  ),
  ERROR_IN_UPDATE_MERCHANT_CONFIGURATION: define(
    'ERROR_IN_UPDATE_MERCHANT_CONFIGURATION',
    'INVALID',
    'The merchant configuration could not be saved: {reason}.',
    'No se pudo guardar la configuración del comercio: {reasonEs}.',
  ),
  COUNTRY_PROCESSOR_NOT_FOUND: define(
    'COUNTRY_PROCESSOR_NOT_FOUND',
    'NOT_FOUND',
    'The country processor was not found.',
    'No se encontró el procesador del país.',
  ),
  COUNTRY_PROCESSOR_NOT_ENABLED: define(
    'COUNTRY_PROCESSOR_NOT_ENABLED',
    'INVALID',
    'These country processors are not enabled for your business: {ids}.',
    'Estos procesadores de país no están habilitados para su empresa: {ids}.',
  ),
  MERCHANT_COUNTRY_PROCESSOR_NOT_FOUND: define(
    'MERCHANT_COUNTRY_PROCESSOR_NOT_FOUND',
    'NOT_FOUND',
    'The relationship between the merchant and the country processor was not found.',
    'No se encontró la relación entre el comercio y el procesador del país.',
  ),
  MERCHANT_COUNTRY_PROCESSOR_ALREADY_EXISTS: define(
    'MERCHANT_COUNTRY_PROCESSOR_ALREADY_EXISTS',
    'CONFLICT',
    'The merchant is already related to this country processor.',
    'El comercio ya está relacionado con este procesador de país.',
  ),
  COUNTRY_NOT_OFFERED: define(
    'COUNTRY_NOT_OFFERED',
    'NOT_FOUND',
    'The merchant does not collect payments in this country.',
    'El comercio no cobra pagos en este país.',
  ),
  PAYER_NOT_FOUND: define('PAYER_NOT_FOUND', 'NOT_FOUND', 'The payer was not found.', 'No se encontró el pagador.'),
  PAYER_ALREADY_EXISTS: define(
    'PAYER_ALREADY_EXISTS',
    'CONFLICT',
    'A payer with this document already exists for the merchant: {payerId}.',
    'Ya existe un pagador con este documento para el comercio: {payerId}.',
  ),
  PAYER_DOCUMENT_MISMATCH: define(
    'PAYER_DOCUMENT_MISMATCH',
    'INVALID',
    "The document sent does not match the payer's document on file.",
    'El documento enviado no coincide con el documento registrado del pagador.',
  ),
  ERROR_IN_DELETE_PAYER: define(
    'ERROR_IN_DELETE_PAYER',
    'INVALID',
    'The payer could not be deleted: {reason}.',
    'No se pudo eliminar el pagador: {reasonEs}.',
  ),
  PAYMENT_INSTRUMENT_NOT_FOUND: define(
    'PAYMENT_INSTRUMENT_NOT_FOUND',
    'NOT_FOUND',
    'The payment instrument was not found.',
    'No se encontró el medio de pago.',
  ),
  PAYMENT_METHOD_NOT_AVAILABLE: define(
    'PAYMENT_METHOD_NOT_AVAILABLE',
    'INVALID',
    'The merchant has no active processor for {method} in {country}.',
    'El comercio no tiene un procesador activo para {method} en {country}.',
  ),
  PAYMENT_INTENT_NOT_FOUND: define(
    'PAYMENT_INTENT_NOT_FOUND',
    'NOT_FOUND',
    'The payment intent was not found.',
    'No se encontró la intención de pago.',
  ),
  PAYMENT_INTENT_INVALID_STATE: define(
    'PAYMENT_INTENT_INVALID_STATE',
    'CONFLICT',
    'The payment intent cannot do this in its current status ({status}).',
    'La intención de pago no puede realizar esta acción en su estado actual ({status}).',
  ),
  REFUND_AMOUNT_EXCEEDS_AVAILABLE: define(
    'REFUND_AMOUNT_EXCEEDS_AVAILABLE',
    'INVALID',
    'The refund exceeds what can still be refunded ({available} {currency}).',
    'El reembolso supera lo que aún se puede reembolsar ({available} {currency}).',
  ),
  NO_PENDING_MANUAL_REFUND: define(
    'NO_PENDING_MANUAL_REFUND',
    'CONFLICT',
    'There is no pending manual refund of this amount to confirm.',
    'No hay un reembolso manual pendiente por este monto para confirmar.',
  ),
  COUNTRY_PROCESSOR_NOT_AVAILABLE: define(
    'COUNTRY_PROCESSOR_NOT_AVAILABLE',
    'INVALID',
    'This country processor is not available for the payment intent.',
    'Este procesador de país no está disponible para la intención de pago.',
  ),
  CURRENCY_NOT_ACCEPTED: define(
    'CURRENCY_NOT_ACCEPTED',
    'INVALID',
    '{currency} is not accepted in {country}.',
    '{currency} no se acepta en {country}.',
  ),
  VAT_RATE_NOT_ALLOWED: define(
    'VAT_RATE_NOT_ALLOWED',
    'INVALID',
    'A VAT of {vat}% is not allowed in {country} (allowed: {allowed}).',
    'Un IVA de {vat}% no está permitido en {country} (permitidos: {allowed}).',
  ),
  WEBHOOK_ENDPOINT_NOT_FOUND: define(
    'WEBHOOK_ENDPOINT_NOT_FOUND',
    'NOT_FOUND',
    'The webhook endpoint was not found.',
    'No se encontró el endpoint de webhooks.',
  ),
  WEBHOOK_URL_NOT_ALLOWED: define(
    'WEBHOOK_URL_NOT_ALLOWED',
    'INVALID',
    'Webhooks cannot be sent to this URL: {reason}.',
    'No se pueden enviar webhooks a esta URL: {reasonEs}.',
  ),
  WEBHOOK_ENDPOINT_DISABLED: define(
    'WEBHOOK_ENDPOINT_DISABLED',
    'CONFLICT',
    'The webhook endpoint is disabled; enable it before redelivering to it.',
    'El endpoint de webhooks está deshabilitado; habilítelo antes de reenviarle eventos.',
  ),
  EVENT_NOT_FOUND: define('EVENT_NOT_FOUND', 'NOT_FOUND', 'The event was not found.', 'No se encontró el evento.'),
  LINK_NOT_FOUND: define('LINK_NOT_FOUND', 'NOT_FOUND', 'The payment link was not found.', 'No se encontró el link de pago.'),
  TOO_MANY_ATTEMPTS: define(
    'TOO_MANY_ATTEMPTS',
    'TOO_MANY_REQUESTS',
    'Too many declined or started payments from here: new attempts are refused for {retryAfter} s (the Retry-After header). Nothing was charged.',
    'Demasiados pagos rechazados o iniciados desde aquí: se rechazan nuevos intentos durante {retryAfter} s (encabezado Retry-After). No se cobró nada.',
    'Payins',
  ),
  LINK_ALREADY_USED: define(
    'LINK_ALREADY_USED',
    'CONFLICT',
    'This payment link has already been used.',
    'Este link de pago ya fue utilizado.',
  ),
  LINK_EXPIRED: define('LINK_EXPIRED', 'CONFLICT', 'This payment link has expired.', 'Este link de pago venció.'),
  ERROR_DELETING_LINK: define(
    'ERROR_DELETING_LINK',
    'INVALID',
    'The payment link could not be deleted: {reason}.',
    'No se pudo eliminar el link de pago: {reasonEs}.',
  ),
  FAST_PAYMENTS_NOT_ENABLED: define(
    'FAST_PAYMENTS_NOT_ENABLED',
    'NOT_FOUND',
    'No merchant takes fast payments under this short name.',
    'Ningún comercio acepta pagos rápidos con este nombre corto.',
  ),
  IDEMPOTENCY_KEY_REUSED: define(
    'IDEMPOTENCY_KEY_REUSED',
    'UNPROCESSABLE',
    'This Idempotency-Key was already used with a different request.',
    'Esta Idempotency-Key ya se usó con una solicitud diferente.',
  ),
  IDEMPOTENCY_REQUEST_IN_PROGRESS: define(
    'IDEMPOTENCY_REQUEST_IN_PROGRESS',
    'CONFLICT',
    'A request with this Idempotency-Key is still being processed. Retry in a moment.',
    'Una solicitud con esta Idempotency-Key todavía se está procesando. Reintente en un momento.',
  ),
  GATEWAY_SESSION_NOT_FOUND: define(
    'GATEWAY_SESSION_NOT_FOUND',
    'NOT_FOUND',
    'This payment page does not exist or has closed.',
    'Esta página de pago no existe o ya se cerró.',
  ),
  GATEWAY_CALLBACK_REJECTED: define(
    'GATEWAY_CALLBACK_REJECTED',
    'UNAUTHORIZED',
    'The gateway callback could not be verified.',
    'No se pudo verificar la notificación de la pasarela.',
  ),
  INVALID_SETTLEMENT_ACCOUNT: define(
    'INVALID_SETTLEMENT_ACCOUNT',
    'INVALID',
    'The settlement account is not valid: {reason}.',
    'La cuenta de liquidación no es válida: {reasonEs}.',
    'Payins',
  ),
  SETTLEMENT_ACCOUNT_MISSING: define(
    'SETTLEMENT_ACCOUNT_MISSING',
    'CONFLICT',
    'The merchant has no settlement account in {currency}: set one before paying out.',
    'El comercio no tiene una cuenta de liquidación en {currency}: configure una antes de retirar fondos.',
    'Payins',
  ),
  PAYOUT_AMOUNT_EXCEEDS_AVAILABLE: define(
    'PAYOUT_AMOUNT_EXCEEDS_AVAILABLE',
    'INVALID',
    'The payout amount is more than the available balance ({available} {currency}).',
    'El monto del retiro supera el saldo disponible ({available} {currency}).',
    'Payins',
  ),
  NOTHING_TO_PAY_OUT: define(
    'NOTHING_TO_PAY_OUT',
    'CONFLICT',
    'There is nothing to pay out in {currency}: the available balance is {available}.',
    'No hay fondos para retirar en {currency}: el saldo disponible es {available}.',
    'Payins',
  ),
  SETTLEMENT_ACCOUNT_ON_HOLD: define(
    'SETTLEMENT_ACCOUNT_ON_HOLD',
    'CONFLICT',
    'The settlement account in {currency} was set or changed recently: payouts to it wait until {holdUntil}, unless a dashboard admin confirms it with a second-factor code.',
    'La cuenta de liquidación en {currency} se configuró o cambió hace poco: los retiros a ella esperan hasta {holdUntil}, salvo que un administrador del panel la confirme con un código del segundo factor.',
    'Payins',
    ['holdUntil'],
  ),
  SETTLEMENT_ACCOUNT_RETURNED: define(
    'SETTLEMENT_ACCOUNT_RETURNED',
    'CONFLICT',
    'A bank returned payout {returnedPayoutId} from the settlement account in {currency}: no payout goes to it until it is changed or a dashboard admin confirms it with a second-factor code.',
    'Un banco devolvió el retiro {returnedPayoutId} de la cuenta de liquidación en {currency}: ningún retiro va a ella hasta que se cambie o un administrador del panel la confirme con un código del segundo factor.',
    'Payins',
    ['returnedPayoutId'],
  ),
  PAYOUT_CURRENCY_NOT_SUPPORTED: define(
    'PAYOUT_CURRENCY_NOT_SUPPORTED',
    'CONFLICT',
    'Payouts in {currency} cannot reach the settlement account: {reason}. Nothing was paid out.',
    'Los retiros en {currency} no pueden llegar a la cuenta de liquidación: {reasonEs}. No se retiró nada.',
    'Payins',
  ),
  SETTLEMENT_ACCOUNT_CONFIRMATION_REFUSED: define(
    'SETTLEMENT_ACCOUNT_CONFIRMATION_REFUSED',
    'UNAUTHORIZED',
    'The confirmation was refused: it takes an enabled admin of the business and a fresh code of their authenticator.',
    'La confirmación fue rechazada: requiere un administrador habilitado del negocio y un código nuevo de su autenticador.',
    'Payins',
  ),
  AMOUNT_BELOW_MINIMUM: define(
    'AMOUNT_BELOW_MINIMUM',
    'INVALID',
    'The amount is below the minimum of {paymentMethod}: {minimumAmount} {currency}. A smaller payment would cost more in fees than it brings.',
    'El monto es menor que el mínimo de {paymentMethod}: {minimumAmount} {currency}. Un pago menor costaría más en comisiones de lo que aporta.',
    'Payins',
    ['minimumAmount'],
  ),
  PAYOUT_NOT_FOUND: define('PAYOUT_NOT_FOUND', 'NOT_FOUND', 'The payout was not found.', 'No se encontró el retiro.', 'Payins'),
  PAYOUT_INVALID_STATE: define(
    'PAYOUT_INVALID_STATE',
    'CONFLICT',
    'The payout is {status}: only a payout that has not left for the bank can be canceled.',
    'El retiro está {status}: solo se puede cancelar un retiro que todavía no salió hacia el banco.',
    'Payins',
  ),
  DISPUTE_NOT_FOUND: define('DISPUTE_NOT_FOUND', 'NOT_FOUND', 'The dispute was not found.', 'No se encontró la disputa.', 'Payins'),
  INVALID_EVIDENCE: define(
    'INVALID_EVIDENCE',
    'INVALID',
    'The evidence was not accepted: {reason}. Send PDF, PNG or JPEG files in the multipart field `file`, at most {maxFiles} files and {maxMegabytes} MB per dispute.',
    'La evidencia no fue aceptada: {reasonEs}. Envíe archivos PDF, PNG o JPEG en el campo multipart `file`, como máximo {maxFiles} archivos y {maxMegabytes} MB por disputa.',
    'Payins',
  ),
  DISPUTE_INVALID_STATE: define(
    'DISPUTE_INVALID_STATE',
    'CONFLICT',
    'The dispute is {status}: {action} is no longer possible.',
    'La disputa está en estado {status}: ya no es posible {actionEs}.',
    'Payins',
  ),
  DISPUTE_EVIDENCE_OVERDUE: define(
    'DISPUTE_EVIDENCE_OVERDUE',
    'CONFLICT',
    'The evidence was due by {evidenceDueBy}: the processor takes no more.',
    'La evidencia debía presentarse antes de {evidenceDueBy}: el procesador ya no la recibe.',
    'Payins',
  ),
  DISPUTE_NO_EVIDENCE: define(
    'DISPUTE_NO_EVIDENCE',
    'CONFLICT',
    'Upload at least one evidence file before submitting the dispute.',
    'Suba al menos un archivo de evidencia antes de presentar la disputa.',
    'Payins',
  ),
  DISPUTE_EVIDENCE_AT_PROCESSOR: define(
    'DISPUTE_EVIDENCE_AT_PROCESSOR',
    'CONFLICT',
    '{provider} takes dispute evidence in its own dashboard, not through its API: upload the files there. This dispute follows {provider}’s decision.',
    '{provider} recibe la evidencia de las disputas en su propio panel, no por su API: suba allí los archivos. Esta disputa sigue la decisión de {provider}.',
    'Payins',
  ),
  DISPUTE_EVIDENCE_REFUSED: define(
    'DISPUTE_EVIDENCE_REFUSED',
    'UNPROCESSABLE',
    '{provider} refused the evidence (it answered {status}): the dispute still waits for it. Check the files and the due date, and submit again.',
    '{provider} rechazó la evidencia (respondió {status}): la disputa sigue esperándola. Revise los archivos y la fecha límite, y preséntela de nuevo.',
    'Payins',
  ),
  DISPUTE_SUBMISSION_IN_PROGRESS: define(
    'DISPUTE_SUBMISSION_IN_PROGRESS',
    'CONFLICT',
    'The evidence of this dispute is being sent to the processor: wait for that to finish.',
    'La evidencia de esta disputa se está enviando al procesador: espere a que termine.',
    'Payins',
  ),
  RECONCILIATION_RUN_NOT_FOUND: define(
    'RECONCILIATION_RUN_NOT_FOUND',
    'NOT_FOUND',
    'The reconciliation run was not found.',
    'No se encontró la conciliación.',
    'Payins',
  ),
  SUBSCRIPTION_NOT_FOUND: define(
    'SUBSCRIPTION_NOT_FOUND',
    'NOT_FOUND',
    'The subscription was not found.',
    'No se encontró la suscripción.',
    'Payins',
  ),
  INVOICE_NOT_FOUND: define('INVOICE_NOT_FOUND', 'NOT_FOUND', 'The invoice was not found.', 'No se encontró la factura.', 'Payins'),
  CARD_SETUP_NOT_FOUND: define(
    'CARD_SETUP_NOT_FOUND',
    'NOT_FOUND',
    'The card setup was not found.',
    'No se encontró el registro de tarjeta.',
    'Payins',
  ),
  TEST_CLOCK_NOT_FOUND: define(
    'TEST_CLOCK_NOT_FOUND',
    'NOT_FOUND',
    'The test clock was not found.',
    'No se encontró el reloj de prueba.',
    'Payins',
  ),
  SUBSCRIPTION_INVALID_STATE: define(
    'SUBSCRIPTION_INVALID_STATE',
    'CONFLICT',
    'The subscription is {status}: {action} is not possible.',
    'La suscripción está en estado {status}: no es posible {actionEs}.',
    'Payins',
  ),
  TEST_CLOCK_NEEDS_SANDBOX: define(
    'TEST_CLOCK_NEEDS_SANDBOX',
    'INVALID',
    'A subscription on a test clock charges a sandbox instrument only: this instrument is charged at {provider}.',
    'Una suscripción con reloj de prueba solo cobra instrumentos del sandbox: este instrumento se cobra en {provider}.',
    'Payins',
  ),
  TEST_CLOCK_INVALID_ADVANCE: define(
    'TEST_CLOCK_INVALID_ADVANCE',
    'INVALID',
    'A test clock moves forward only, at most two years at once: it is at {frozenTime}.',
    'Un reloj de prueba solo avanza, como máximo dos años por vez: está en {frozenTime}.',
    'Payins',
  ),
  TEST_CLOCK_DELETED: define(
    'TEST_CLOCK_DELETED',
    'CONFLICT',
    'The test clock was deleted: it no longer moves and takes no subscriptions.',
    'El reloj de prueba fue eliminado: ya no avanza ni acepta suscripciones.',
    'Payins',
  ),
  TEST_CLOCK_ADVANCING: define(
    'TEST_CLOCK_ADVANCING',
    'CONFLICT',
    'The test clock is moving: wait for its advance to finish.',
    'El reloj de prueba está avanzando: espere a que termine.',
    'Payins',
  ),
} as const;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CATALOGUE: readonly ErrorDefinition[] = Object.values(ERRORS);
