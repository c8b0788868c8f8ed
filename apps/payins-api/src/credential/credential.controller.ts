import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { CredentialService, CredentialSummary } from '@pcs/businesses';
import { ApiStandardErrors, CurrentCaller, SignedController } from '@pcs/http';
import type { Caller } from '@pcs/kernel';
import { tenantScope } from '@pcs/kernel';

/** A credential as its owner sees it (contract §22): its key and when each of its secrets was last used, never a secret. */
export class CredentialResponse {
  @ApiProperty({ example: 'pk_3f1c0b2a9e8d7c6b5a4f3e2d1c0b9a88' }) apiKey: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "The merchant's, or null for the business's own" })
  merchantId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Set once a new key pair replaced it: it works until then',
  })
  expiresAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
  @ApiProperty({ description: 'Whether it signs requests now' }) usable: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: "Its current secret's last use, to the minute" })
  lastUsedAt: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'After a rotation on the same key: until when the previous secret still verifies',
  })
  previousSecretExpiresAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: "The previous secret's last use, to the minute" })
  previousSecretLastUsedAt: string | null;
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

function present(c: CredentialSummary): CredentialResponse {
  return {
    apiKey: c.apiKey,
    merchantId: c.merchantId,
    createdAt: c.createdAt.toISOString(),
    expiresAt: iso(c.expiresAt),
    revokedAt: iso(c.revokedAt),
    usable: c.usable,
    lastUsedAt: iso(c.lastUsedAt),
    previousSecretExpiresAt: iso(c.previousSecretExpiresAt),
    previousSecretLastUsedAt: iso(c.previousSecretLastUsedAt),
  };
}

/** The caller's API credentials (contract §22): a business's own and its merchants', a merchant's own; the last use of each secret. */
@SignedController('credential', 'credentials')
export class CredentialController {
  constructor(private readonly credentials: CredentialService) {}

  @Get()
  @ApiOperation({
    summary: 'List API credentials and their last use',
    description:
      'A business sees its own credentials and its merchants’, a merchant only its own; each with the last use of its secret (and of the ' +
      'previous one during the grace of a rotation on the same key), to the minute. Never a secret. Rotation is the operator’s ' +
      '(`npm run admin -- credentials:rotate --api-key`).',
    operationId: 'listCredentials',
  })
  @ApiOkResponse({ type: [CredentialResponse] })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller): Promise<CredentialResponse[]> {
    return (await this.credentials.summariesOf(tenantScope(caller))).map(present);
  }
}
