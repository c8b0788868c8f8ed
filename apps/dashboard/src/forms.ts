import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { RequestValidationPipe } from '@pcs/http/validation';
import { InvalidRequestError } from '@pcs/kernel';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageError } from './web';

/**
 * The dashboard's forms, checked by the APIs' own validation pipe before a
 * controller reads them: every field a string (a repeated field is refused
 * unless the form repeats it on purpose), of a bounded length, and no field
 * the form does not have. Refusals are the 400 page. The bounds refuse only
 * what no person types (the pages' inputs are shorter, and the controllers
 * still trim to the API's limits); what a value means (an amount, an email)
 * is checked where it is used, with the page's own message. The dispute
 * evidence form is multipart and checked by uploads.ts.
 */
@Injectable()
export class FormPipe implements PipeTransform {
  private readonly inner = new RequestValidationPipe();

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await this.inner.transform(value, metadata);
    } catch (error) {
      if (error instanceof InvalidRequestError) throw new PageError(400, 'unreadable');
      throw error;
    }
  }
}

/** An optional text field of at most `max` characters. */
function Text(max: number): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsString()(target, key);
    MaxLength(max)(target, key);
  };
}

/** A field a form may repeat (checkboxes of one name): one value or several, each a text of at most `max`. */
function Texts(max: number, most: number): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))(target, key);
    IsOptional()(target, key);
    IsArray()(target, key);
    ArrayMaxSize(most)(target, key);
    IsString({ each: true })(target, key);
    MaxLength(max, { each: true })(target, key);
  };
}

/** Every form carries the CSRF token (checked before any controller runs). */
export class Form {
  @Text(128) _csrf?: string;
}

export class SignInForm extends Form {
  @Text(1024) email?: string;
  @Text(1024) password?: string;
  @Text(2048) next?: string;
}

export class CodeForm extends Form {
  @Text(256) code?: string;
  @Text(2048) next?: string;
}

export class PasswordForm extends Form {
  @Text(1024) current?: string;
  @Text(1024) password?: string;
  @Text(1024) confirm?: string;
  @Text(2048) next?: string;
}

export class LinkForm extends Form {
  @Text(64) merchantId?: string;
  @Text(64) amount?: string;
  @Text(64) vatPercentage?: string;
  @Text(16) currency?: string;
  @Text(16) country?: string;
  @Texts(64, 100) processor?: string[];
  @Text(2048) description?: string;
  @Text(2048) reference?: string;
}

export class LinkShareForm extends Form {
  @Text(1024) receiverEmail?: string;
  @Text(1024) receiverName?: string;
}

export class MerchantConfigurationForm extends Form {
  @Text(256) shortName?: string;
  @Text(8192) notificationEmails?: string;
  @Text(8) paymentSuccessNotification?: string;
  @Text(8) paymentErrorNotification?: string;
  @Text(8) fastPaymentsEnabled?: string;
  // The installment policy per country (contract §25): the most, the interest-free, the least installment.
  @Text(8) maxInstallmentsURY?: string;
  @Text(8) interestFreeUpToURY?: string;
  @Text(32) minInstallmentAmountURY?: string;
  @Text(8) maxInstallmentsARG?: string;
  @Text(8) interestFreeUpToARG?: string;
  @Text(32) minInstallmentAmountARG?: string;
  @Text(8) maxInstallmentsBRA?: string;
  @Text(8) interestFreeUpToBRA?: string;
  @Text(32) minInstallmentAmountBRA?: string;
  // The routing rules (contract §26), as JSON.
  @Text(20_000) routing?: string;
}

/** A confirmed money movement: the confirmation and the operation's key (the page's Idempotency-Key). */
export class ConfirmedForm extends Form {
  @Text(8) confirmed?: string;
  @Text(64) operation?: string;
}

export class CancelSubscriptionForm extends ConfirmedForm {
  @Text(8) when?: string;
}

export class RefundForm extends ConfirmedForm {
  @Text(16) kind?: string;
  @Text(64) amount?: string;
}

export class PayoutForm extends ConfirmedForm {
  @Text(64) merchantId?: string;
  @Text(16) currency?: string;
  @Text(64) amount?: string;
}

/** An admin's confirmation of a settlement account: the account (merchant and currency) and a fresh code of their authenticator. */
export class ConfirmAccountForm extends Form {
  @Text(64) merchantId?: string;
  @Text(16) currency?: string;
  @Text(16) code?: string;
}

export class TeamMemberForm extends Form {
  @Text(1024) email?: string;
  @Text(32) role?: string;
  @Text(64) merchantId?: string;
}

export class RoleForm extends Form {
  @Text(32) role?: string;
  /** The acting admin's fresh code, when the person is an admin (contract §30). */
  @Text(16) code?: string;
}

export class WebhookEndpointForm extends Form {
  @Text(4096) url?: string;
  @Text(2048) description?: string;
  @Text(64) merchantId?: string;
}
