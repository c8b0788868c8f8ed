import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import type { Response } from 'express';
import * as crypto from 'node:crypto';
import { DASHBOARD_HEADERS } from './pages/layout';
import { signInPage } from './pages/sign-in';
import { fill, TEXTS } from './pages/texts';
import { Payins } from './payins';
import type { DashboardRequest } from './web';
import { actorOf, Anonymous, cookieOf, languageOf, PageError, Redirect, sameToken, SESSION_COOKIE, SIGN_IN_COOKIE } from './web';

/** Only a path of this site: `//host` or `https://…` would send a person elsewhere after signing in. */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])[\x21-\x7e]{0,500}$/.test(next) ? next : '/overview';
}

@Controller()
export class AuthController {
  private businessId: string | null = null;

  constructor(
    private readonly identity: DashboardIdentity,
    private readonly payins: Payins,
  ) {}

  /** The business of the dashboard's credential, asked of the payins API once. */
  private async business(): Promise<string | null> {
    this.businessId ??= await this.payins.businessId();
    return this.businessId;
  }

  @Anonymous()
  @Get()
  home(): never {
    throw new Redirect('/overview');
  }

  @Anonymous()
  @Get('sign-in')
  form(@Req() request: DashboardRequest, @Res() response: Response, @Query('next') next: unknown): void {
    const token = crypto.randomBytes(32).toString('base64url');
    response
      .cookie(SIGN_IN_COOKIE, token, cookieOptions(request, 10 * 60_000))
      .set(DASHBOARD_HEADERS)
      .send(signInPage(languageOf(request), { token, next: safeNext(next) }));
  }

  @Anonymous()
  @Post('sign-in')
  @HttpCode(200)
  async signIn(@Req() request: DashboardRequest, @Res() response: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const preToken = cookieOf(request, SIGN_IN_COOKIE);
    if (!preToken || !sameToken(body._csrf, preToken)) throw new PageError(403, 'forbidden');
    const email = typeof body.email === 'string' ? body.email.slice(0, 254) : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const language = languageOf(request);
    const t = TEXTS[language];
    let result = await this.identity.signIn(email, password, request.ip ?? '');
    // Only the people of the business whose credential the dashboard signs with.
    if (result.outcome === 'signed-in' && result.session.user.businessId !== (await this.business())) {
      await this.identity.signOut(result.token);
      result = { outcome: 'refused' };
    }
    const user = result.outcome === 'signed-in' ? result.session.user : await this.identity.userByEmail(email);
    if (user) {
      await this.identity.audit({
        ...actorOf(user),
        action: 'sign-in',
        result: result.outcome === 'signed-in' ? 'succeeded' : 'refused',
        detail: result.outcome === 'signed-in' ? {} : { reason: result.outcome },
      });
    }
    if (result.outcome !== 'signed-in') {
      const problem =
        result.outcome === 'throttled' ? fill(t.signInThrottled, { minutes: Math.ceil(result.retryAfterSeconds / 60) }) : t.signInRefused;
      response
        .status(result.outcome === 'throttled' ? 429 : 401)
        .set(DASHBOARD_HEADERS)
        .set(result.outcome === 'throttled' ? { 'Retry-After': String(result.retryAfterSeconds) } : {})
        .send(signInPage(language, { token: preToken, next: safeNext(body.next), email, problem }));
      return;
    }
    response
      .clearCookie(SIGN_IN_COOKIE, cookieOptions(request))
      .cookie(SESSION_COOKIE, result.token, cookieOptions(request))
      .redirect(303, safeNext(body.next));
  }

  @Post('sign-out')
  async signOut(@Req() request: DashboardRequest, @Res() response: Response): Promise<void> {
    if (request.sessionToken) await this.identity.signOut(request.sessionToken);
    response.clearCookie(SESSION_COOKIE, cookieOptions(request)).redirect(303, '/sign-in');
  }
}

/**
 * HttpOnly (no script reads it), SameSite=Lax (a post from another site
 * carries no cookie; a link from an email still opens a signed-in page), and
 * Secure whenever the page was served over https (behind a proxy, as its
 * X-Forwarded-Proto says when TRUST_PROXY names it).
 */
function cookieOptions(request: DashboardRequest, maxAge?: number) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: request.secure, path: '/', ...(maxAge ? { maxAge } : {}) };
}
