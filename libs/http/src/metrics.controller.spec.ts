import type { RuntimeSettings } from '@pcs/config';
import { DomainError } from '@pcs/kernel';
import { metrics } from '@pcs/observability';
import type { Response } from 'express';
import { MetricsController } from './metrics.controller';

/** A response that keeps the headers set on it. */
function headersKept(): { response: Response; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  const response = { setHeader: (name: string, value: string) => void (headers[name] = value) } as unknown as Response;
  return { response, headers };
}

/**
 * Prometheus's scrape (contract §27): the registry's text, to anyone without METRICS_TOKEN, and
 * only to the bearer of the token with it; a wrong, absent or differently written token is a 401
 * with the Bearer challenge, and no figure leaves. test/observability.e2e-spec.ts scrapes over HTTP.
 */
describe('MetricsController', () => {
  it('answers the registry’s text (a counter just counted is in it) when no token is configured', async () => {
    metrics.cardTestingRefusals.inc({ page: 'LINK' });
    const { response } = headersKept();
    const text = await new MetricsController({ metricsToken: null } as RuntimeSettings).scrape(undefined, response);
    expect(text).toMatch(/^pcs_card_testing_refusals_total\{page="LINK"\} [1-9]/m);
  });

  it('answers only the bearer of METRICS_TOKEN; anything else is Auth:UNAUTHORIZED with the Bearer challenge', async () => {
    const controller = new MetricsController({ metricsToken: 'scrape-me-0123456789' } as RuntimeSettings);
    for (const authorization of [
      undefined,
      '',
      'Bearer scrape-me',
      'bearer scrape-me-0123456789',
      'Basic c2NyYXBlLW1l',
      'Bearer scrape-me-0123456789 ',
    ]) {
      const { response, headers } = headersKept();
      const refused = await controller.scrape(authorization, response).then(
        () => null,
        (error: unknown) => error,
      );
      expect([authorization, refused instanceof DomainError && refused.code]).toEqual([authorization, 'UNAUTHORIZED']);
      expect(headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
    const { response, headers } = headersKept();
    expect(await controller.scrape('Bearer scrape-me-0123456789', response)).toContain('# TYPE pcs_card_testing_blocks_total counter');
    expect(headers).toEqual({});
  });
});
