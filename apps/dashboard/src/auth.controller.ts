import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { DashboardIdentity, DashboardSession, LOCKOUT_MINUTES, SessionStage } from '@pcs/dashboard-identity';
import { FormPipe, CodeForm, PasswordForm, SignInForm } from './forms';
import type { Response } from 'express';
import * as crypto from 'node:crypto';
import { DASHBOARD_HEADERS } from './pages/layout';
import { codePage, enrolPage, passwordPage, recoveryCodesPage, signInPage } from './pages/sign-in';
import { fill, Texts, TEXTS } from './pages/texts';
import { PayinsApi } from './payins-api';
import type { DashboardRequest } from './web';
import { Anonymous, cookieName, languageOf, PageError, Redirect, SESSION_COOKIE, SIGN_IN_COOKIE, SignInStep, STAGE_PAGES } from './web';

/** Only a path of this site: `//host` or `https://…` would send a person elsewhere after signing in. */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])[\x21-\x7e]{0,500}$/.test(next) ? next : '/overview';
}

/** Where a session goes after a step: the next step's page, or where the person was going. */
function afterStep(stage: SessionStage, next: string): string {
  return stage === 'signed-in' ? next : `${STAGE_PAGES[stage]}?next=${encodeURIComponent(next)}`;
}

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');

/**
 * Signing in (contracts §18 and §22): the password, then the second factor
 * (its enrolment at the first sign-in, with the recovery codes shown once),
 * then a new password when one is due; each step within five minutes, each
 * failure counted towards the lockout, everything audited by the identity.
 */
@Controller()
export class AuthController {
  private businessId: string | null = null;

  constructor(
    private readonly identity: DashboardIdentity,
    private readonly api: PayinsApi,
  ) {}

  /** The business of the dashboard's credential, asked of the payins API once. */
  private async business(): Promise<string> {
    this.businessId ??= await this.api.businessId();
    if (!this.businessId) throw new PageError(503, 'apiUnavailable');
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
      .cookie(cookieName(request, SIGN_IN_COOKIE), token, cookieOptions(request, 10 * 60_000))
      .set(DASHBOARD_HEADERS)
      .send(signInPage(languageOf(request), { token, next: safeNext(next) }));
  }

  @Anonymous()
  @Post('sign-in')
  @HttpCode(200)
  async signIn(@Req() request: DashboardRequest, @Res() response: Response, @Body(FormPipe) body: SignInForm): Promise<void> {
    const email = text(body.email, 254);
    const language = languageOf(request);
    const t = TEXTS[language];
    const next = safeNext(body.next);
    const result = await this.identity.signIn(email, text(body.password, 1024), request.ip ?? '', await this.business());
    if (result.outcome !== 'next') {
      const minutes = result.outcome === 'refused' ? 0 : Math.ceil(result.retryAfterSeconds / 60);
      const problem =
        result.outcome === 'throttled'
          ? fill(t.signInThrottled, { minutes })
          : result.outcome === 'locked'
            ? fill(t.signInLocked, { minutes })
            : t.signInRefused;
      response
        .status(result.outcome === 'refused' ? 401 : 429)
        .set(DASHBOARD_HEADERS)
        .set(result.outcome === 'refused' ? {} : { 'Retry-After': String(result.retryAfterSeconds) })
        // The form's token: the guard found it equal to the sign-in cookie's.
        .send(signInPage(language, { token: body._csrf!, next, email, problem }));
      return;
    }
    response
      .clearCookie(cookieName(request, SIGN_IN_COOKIE), cookieOptions(request))
      .cookie(cookieName(request, SESSION_COOKIE), result.token, cookieOptions(request))
      .redirect(303, afterStep(result.session.stage, next));
  }

  @SignInStep('code')
  @Get('sign-in/code')
  code(@Req() request: DashboardRequest, @Res() response: Response, @Query('next') next: unknown): void {
    response.set(DASHBOARD_HEADERS).send(codePage(languageOf(request), { csrfToken: request.dashboard!.csrfToken, next: safeNext(next) }));
  }

  @SignInStep('code')
  @Post('sign-in/code')
  @HttpCode(200)
  async verifyCode(@Req() request: DashboardRequest, @Res() response: Response, @Body(FormPipe) body: CodeForm): Promise<void> {
    const language = languageOf(request);
    const next = safeNext(body.next);
    const result = await this.identity.verifyCode(request.sessionToken!, text(body.code, 64), request.ip ?? '');
    // The session goes on under a new token (contract §27): the one from before the second factor is worth nothing now.
    if (result.outcome === 'next')
      return response
        .cookie(cookieName(request, SESSION_COOKIE), result.token, cookieOptions(request))
        .redirect(303, afterStep(result.session.stage, next));
    if (result.outcome === 'locked') return this.lockedOut(request, response, next);
    const t = TEXTS[language];
    response
      .status(401)
      .set(DASHBOARD_HEADERS)
      .send(
        codePage(language, {
          csrfToken: request.dashboard!.csrfToken,
          next,
          problem: result.reason === 'reused' ? t.codeReused : t.codeWrong,
        }),
      );
  }

  @SignInStep('enrol')
  @Get('sign-in/enrol')
  async enrol(@Req() request: DashboardRequest, @Res() response: Response, @Query('next') next: unknown): Promise<void> {
    await this.enrolment(request, response, safeNext(next));
  }

  @SignInStep('enrol')
  @Post('sign-in/enrol')
  @HttpCode(200)
  async confirmEnrolment(@Req() request: DashboardRequest, @Res() response: Response, @Body(FormPipe) body: CodeForm): Promise<void> {
    const next = safeNext(body.next);
    const result = await this.identity.confirmEnrolment(request.sessionToken!, text(body.code, 16), request.ip ?? '');
    if (result.outcome === 'locked') return this.lockedOut(request, response, next);
    if (result.outcome === 'refused') return this.enrolment(request, response, next, TEXTS[languageOf(request)].codeWrong, 401);
    response
      .cookie(cookieName(request, SESSION_COOKIE), result.token, cookieOptions(request))
      .set(DASHBOARD_HEADERS)
      .send(recoveryCodesPage(languageOf(request), { codes: result.recoveryCodes, continueTo: afterStep(result.session.stage, next) }));
  }

  @SignInStep('change-password', 'signed-in')
  @Get('account/password')
  password(@Req() request: DashboardRequest, @Res() response: Response, @Query('next') next: unknown, @Query('done') done: unknown): void {
    const session = request.dashboard!;
    const t = TEXTS[languageOf(request)];
    response.set(DASHBOARD_HEADERS).send(
      passwordPage(languageOf(request), {
        csrfToken: session.csrfToken,
        next: safeNext(next),
        due: session.stage === 'change-password',
        user: session.user,
        notice: done === 'changed' ? t.passwordChanged : undefined,
      }),
    );
  }

  @SignInStep('change-password', 'signed-in')
  @Post('account/password')
  @HttpCode(200)
  async changePassword(@Req() request: DashboardRequest, @Res() response: Response, @Body(FormPipe) body: PasswordForm): Promise<void> {
    const session: DashboardSession = request.dashboard!;
    const language = languageOf(request);
    const t = TEXTS[language];
    const next = safeNext(body.next);
    const refuse = (problem: string): void =>
      void response
        .status(400)
        .set(DASHBOARD_HEADERS)
        .send(
          passwordPage(language, {
            csrfToken: session.csrfToken,
            next,
            due: session.stage === 'change-password',
            user: session.user,
            problem,
          }),
        );
    const password = text(body.password, 1024);
    if (password !== text(body.confirm, 1024)) return refuse(t.passwordMismatch);
    const result = await this.identity.changePassword(request.sessionToken!, text(body.current, 1024), password, request.ip ?? '');
    if (result.outcome === 'locked') return this.lockedOut(request, response, next);
    if (result.outcome === 'refused') return refuse(t[`password:${result.problem}` as keyof Texts]);
    response
      .cookie(cookieName(request, SESSION_COOKIE), result.token, cookieOptions(request))
      .redirect(303, session.stage === 'signed-in' ? '/account/password?done=changed' : afterStep(result.session.stage, next));
  }

  @SignInStep('code', 'enrol', 'change-password', 'signed-in')
  @Post('sign-out')
  async signOut(@Req() request: DashboardRequest, @Res() response: Response): Promise<void> {
    if (request.sessionToken) await this.identity.signOut(request.sessionToken);
    response.clearCookie(cookieName(request, SESSION_COOKIE), cookieOptions(request)).redirect(303, '/sign-in');
  }

  private async enrolment(request: DashboardRequest, response: Response, next: string, problem?: string, status = 200): Promise<void> {
    const enrolment = await this.identity.enrolment(request.sessionToken!);
    if (!enrolment) throw new PageError(403, 'sessionEnded');
    response
      .status(status)
      .set(DASHBOARD_HEADERS)
      .send(
        enrolPage(languageOf(request), {
          csrfToken: request.dashboard!.csrfToken,
          next,
          secret: enrolment.secret,
          qrSvg: enrolment.qrSvg,
          problem,
        }),
      );
  }

  /** The tenth failure in a row: the account is locked and its sessions ended; back to the sign-in page, saying so. */
  private lockedOut(request: DashboardRequest, response: Response, next: string): void {
    const token = crypto.randomBytes(32).toString('base64url');
    const language = languageOf(request);
    response
      .status(429)
      .set(DASHBOARD_HEADERS)
      .set({ 'Retry-After': String(LOCKOUT_MINUTES * 60) })
      .clearCookie(cookieName(request, SESSION_COOKIE), cookieOptions(request))
      .cookie(cookieName(request, SIGN_IN_COOKIE), token, cookieOptions(request, 10 * 60_000))
      .send(signInPage(language, { token, next, problem: fill(TEXTS[language].signInLocked, { minutes: LOCKOUT_MINUTES }) }));
  }
}

/**
 * HttpOnly (no script reads it), SameSite=Lax (a post from another site
 * carries no cookie; a link from an email still opens a signed-in page), and
 * Secure whenever the page was served over https (behind a proxy, as its
 * X-Forwarded-Proto says when TRUST_PROXY names it), where its name is also
 * `__Host-` prefixed (see cookieName).
 */
function cookieOptions(request: DashboardRequest, maxAge?: number) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: request.secure, path: '/', ...(maxAge ? { maxAge } : {}) };
}
