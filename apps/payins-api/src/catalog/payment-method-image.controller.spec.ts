import { DomainError, PaymentMethodName } from '@pcs/kernel';
import { PaymentMethodImageController } from './payment-method-image.controller';

/** The payment methods' badges: one SVG per method the catalog names (the file every imageUrl points at), nothing else. */
describe('PaymentMethodImageController', () => {
  const controller = new PaymentMethodImageController();

  it('draws a badge for every payment method, labelled with its name', () => {
    for (const name of Object.values(PaymentMethodName)) {
      const svg = controller.image(`${name.toLowerCase().replace(/_/g, '-')}.svg`);
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg).toContain(`aria-label="${name.replace(/_/g, ' ')}"`);
    }
  });

  it('answers anything else as a route not found, never a drawing of what was asked', () => {
    for (const file of ['visa', 'VISA.svg', '../visa.svg', 'visa.svg.png', '<script>.svg', ''])
      expect(() => controller.image(file)).toThrow(DomainError);
  });
});
