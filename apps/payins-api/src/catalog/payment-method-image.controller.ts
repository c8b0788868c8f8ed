import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@pcs/http';
import { DomainError, PaymentMethodName } from '@pcs/kernel';

const NAMES = new Map(Object.values(PaymentMethodName).map((name) => [`${name.toLowerCase().replace(/_/g, '-')}.svg`, name]));

/**
 * Serves the badge behind each payment method's imageUrl: a small SVG drawn
 * from the method's name, so the URL the API hands out always resolves.
 */
@ApiExcludeController()
@Controller('assets/payment-methods')
export class PaymentMethodImageController {
  @Public()
  @Get(':file')
  @Header('Content-Type', 'image/svg+xml')
  @Header('Cache-Control', 'public, max-age=86400')
  image(@Param('file') file: string): string {
    const name = NAMES.get(file);
    if (!name) throw new DomainError('ROUTE_NOT_FOUND');
    const label = name.replace(/_/g, ' ');
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40" role="img" aria-label="${label}">` +
      `<rect width="120" height="40" rx="6" fill="#1f2937"/>` +
      `<text x="60" y="25" font-family="Helvetica,Arial,sans-serif" font-size="${label.length > 12 ? 9 : 12}" fill="#fff" text-anchor="middle">${label}</text></svg>`
    );
  }
}
