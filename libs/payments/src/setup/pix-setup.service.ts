import { Injectable, Logger } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { GatewayNotice, PixAuthorisation, PixNotAuthorisedError } from '@pcs/gateways';
import { asPaymentInstrumentId, UnitOfWork } from '@pcs/kernel';
import { PaymentInstrumentService } from '@pcs/payment-instruments';
import { CardSetup } from './card-setup';
import { CardSetupRepository } from './card-setup.repository';
import { CardSetupService, SetupPage } from './card-setup.service';

/** Where the payer's authorisation stands, for the setup page. */
export type PixStep =
  | { readonly kind: 'AUTHORISE'; readonly url: string }
  | { readonly kind: 'REFUSED' }
  | { readonly kind: 'DONE'; readonly setup: CardSetup }
  | { readonly kind: 'GONE' };

/**
 * Pix Automático's authorisation from our setup page (contract §31): the page shows the terms (a fixed amount, a
 * periodicity, the first billing date); the payer's "authorise" opens the authorisation at the merchant's processor
 * (dLocal's enrollment, our setup's id as its external id) and goes through the processor's journey to the bank's app;
 * when the processor tells (its notification, the payer's return, the page read again) that the authorisation is
 * active, it becomes the payer's instrument of the PIX method, validated, with `payment_instrument.created`, in one
 * transaction with the setup completed. A refused authorisation lets the payer ask again; one the payer cancels later in
 * the bank's app (the processor's notification) leaves its instrument INACTIVE.
 */
@Injectable()
export class PixSetupService {
  private readonly logger = new Logger('PixSetup');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly setups: CardSetupRepository,
    private readonly cards: CardSetupService,
    private readonly settings: RuntimeSettings,
    private readonly instruments: PaymentInstrumentService,
  ) {}

  /**
   * The page, with what the processor says of an authorisation asked for: ACTIVE completes the setup first (the
   * payer back from the bank's app sees it done), REJECTED or CANCELLED lets the payer ask again.
   */
  async page(setupId: string): Promise<SetupPage & { readonly refused?: boolean }> {
    const page = await this.cards.page(setupId);
    if (page.kind !== 'PIX' || !page.setup.snapshot().pixReference) return page;
    const outcome = await this.refresh(page.setup);
    if (outcome === 'ACTIVE') return this.cards.page(setupId);
    return { ...page, refused: outcome === 'REFUSED' };
  }

  /**
   * The payer asks to authorise: the processor's journey for this setup's authorisation (the one already asked for
   * while it is pending; a new one after a refusal). REFUSED: the processor would not open one for this payer.
   */
  async authorise(setupId: string): Promise<PixStep> {
    const page = await this.cards.page(setupId);
    if (page.kind === 'DONE') return { kind: 'DONE', setup: page.setup };
    if (page.kind !== 'PIX') return { kind: 'GONE' };
    const s = page.setup.snapshot();
    if (s.pixReference) {
      const outcome = await this.refresh(page.setup);
      if (outcome === 'ACTIVE') return { kind: 'DONE', setup: page.setup };
      if (outcome === 'PENDING' && s.pixAuthoriseUrl) return { kind: 'AUTHORISE', url: s.pixAuthoriseUrl };
    }
    const found = await this.cards.pixMethod(s.merchantId, s.countryProcessorId);
    const holder = await this.cards.holderOf(page.setup);
    if (!found || !holder) return { kind: 'GONE' };
    let authorisation: PixAuthorisation;
    try {
      authorisation = await found.gateway.authorizePix(
        s.merchantId,
        holder,
        page.mandate,
        s.setupId,
        `${this.settings.publicBaseUrl}/setup/${s.setupId}`,
      );
    } catch (error) {
      if (error instanceof PixNotAuthorisedError) return { kind: 'REFUSED' };
      throw error;
    }
    if (!authorisation.authoriseUrl) return { kind: 'REFUSED' };
    await this.unitOfWork.run(async (tx) => {
      const setup = await this.setups.find(tx, setupId, null, true);
      if (!setup || setup.stateAt(new Date()) !== 'OPEN') return;
      setup.pixRequested(authorisation.reference, authorisation.authoriseUrl);
      await this.setups.pixRequested(tx, setup);
    });
    return { kind: 'AUTHORISE', url: authorisation.authoriseUrl };
  }

  /** The processor's notification that an authorisation changed: the setup it was asked for, brought up to date. */
  async noticed(
    merchantId: string,
    gateway: string,
    notice: Extract<GatewayNotice, { kind: 'PIX_AUTHORISATION' }>,
  ): Promise<'applied' | 'unknown'> {
    const setup = await this.setups.find(this.unitOfWork.outside, notice.setupId, null);
    const s = setup?.snapshot();
    if (!setup || !s || s.merchantId !== merchantId || s.pixReference !== notice.reference) return 'unknown';
    const found = await this.cards.pixMethod(s.merchantId, s.countryProcessorId);
    if (!found || found.gateway.name !== gateway) return 'unknown';
    // A kept authorisation the payer cancelled in the bank's app (or the processor ended): its instrument charges no more.
    if (s.status === 'COMPLETED' && s.paymentInstrumentId) {
      const now = await found.gateway.pixAuthorisation(s.merchantId, notice.reference);
      if (now.status !== 'CANCELLED' && now.status !== 'REJECTED') return 'unknown';
      return (await this.instruments.deactivateHeldElsewhere(asPaymentInstrumentId(s.paymentInstrumentId))) ? 'applied' : 'unknown';
    }
    return (await this.refresh(setup)) === 'ACTIVE' ? 'applied' : 'unknown';
  }

  /** What the processor says of the setup's authorisation now, applied: ACTIVE keeps it as the payer's instrument. */
  private async refresh(setup: CardSetup): Promise<'ACTIVE' | 'PENDING' | 'REFUSED' | 'UNKNOWN'> {
    const s = setup.snapshot();
    if (s.status === 'COMPLETED') return 'ACTIVE';
    const found = await this.cards.pixMethod(s.merchantId, s.countryProcessorId);
    if (!found || !s.pixReference || !s.pixMandate) return 'UNKNOWN';
    let authorisation: PixAuthorisation;
    try {
      authorisation = await found.gateway.pixAuthorisation(s.merchantId, s.pixReference);
    } catch (error) {
      this.logger.warn(`setup ${s.setupId}: its authorisation could not be read (${(error as Error).message})`);
      return 'UNKNOWN';
    }
    if (authorisation.status === 'PENDING') return 'PENDING';
    if (authorisation.status !== 'ACTIVE') {
      await this.unitOfWork.run(async (tx) => {
        const locked = await this.setups.find(tx, s.setupId, null, true);
        if (!locked || locked.snapshot().pixReference !== s.pixReference || !locked.snapshot().pixAuthoriseUrl) return;
        locked.pixRefused();
        await this.setups.pixRequested(tx, locked);
      });
      return 'REFUSED';
    }
    const kept = await this.cards.keep(setup, found.method, {
      processor: found.gateway.name,
      externalId: authorisation.reference,
      mandate: s.pixMandate,
    });
    return kept || (await this.setups.find(this.unitOfWork.outside, s.setupId, null))?.snapshot().status === 'COMPLETED'
      ? 'ACTIVE'
      : 'UNKNOWN';
  }
}
