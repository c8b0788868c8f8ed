import {
  ArgumentsHost,
  CanActivate,
  Catch,
  ExceptionFilter,
  ExecutionContext,
  Injectable,
  Logger,
  NotFoundException,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { can, DashboardIdentity, DashboardSession, DashboardUser, Permission, SessionStage } from '@pcs/dashboard-identity';
import { isDatabaseUnavailable } from '@pcs/database';
import { sameSecret } from '@pcs/kernel';
import { PageLanguage, pageLanguage } from '@pcs/pages';
import type { Request, Response } from 'express';
import { DASHBOARD_HEADERS, dashboardPage, html } from './pages/layout';
import { Texts, TEXTS } from './pages/texts';
import { PayinsApiError } from './payins-api';

export const SESSION_COOKIE = 'pcs_dashboard';
/** The sign-in form's own CSRF token (double submit: a cookie and the same value in the form), before any session exists. */
export const SIGN_IN_COOKIE = 'pcs_dashboard_sign_in';

/**
 * A cookie's name for this request: over https `__Host-` prefixed, so that
 * the browser keeps it Secure, for this host alone and for every path (no
 * sibling domain can set or shadow it); over plain http (development) as is.
 */
export function cookieName(request: Request, name: string): string {
  return request.secure ? `__Host-${name}` : name;
}

export interface DashboardRequest extends Request {
  dashboard?: DashboardSession;
  sessionToken?: string;
}

/** A page answered with a status and one sentence (400, 403, 404, 503). */
export class PageError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 503,
    readonly text: keyof Texts,
  ) {
    super(text);
  }
}

/** A redirect to another page (303: the browser follows with a GET). */
export class Redirect extends Error {
  constructor(readonly location: string) {
    super(location);
  }
}

export function languageOf(request: Request): PageLanguage {
  return pageLanguage(request.header('accept-language'));
}

export function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.header('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Who did it, and from where, as every audit entry records it. */
export function actorOf(request: DashboardRequest): { businessId: string; userId: string; email: string; address: string | null } {
  const user: DashboardUser = request.dashboard!.user;
  return { businessId: user.businessId, userId: user.userId, email: user.email, address: request.ip ?? null };
}

const ANONYMOUS = 'dashboard:anonymous';
const REQUIRES = 'dashboard:requires';
const SIGN_IN_STEP = 'dashboard:sign-in-step';

/** A page anyone may open (sign-in). */
export const Anonymous = () => SetMetadata(ANONYMOUS, true);
/** A page of a session still signing in, at one of these stages (the second factor, its enrolment, a new password). */
export const SignInStep = (...stages: SessionStage[]) => SetMetadata(SIGN_IN_STEP, stages);

/** Where a session that has not finished signing in goes on. */
export const STAGE_PAGES: Record<Exclude<SessionStage, 'signed-in'>, string> = {
  code: '/sign-in/code',
  enrol: '/sign-in/enrol',
  'change-password': '/account/password',
};
/** What a route needs of the person's role; the server refuses (403) and audits anything else. */
export const Requires = (permission: Permission, action: string) => SetMetadata(REQUIRES, { permission, action });

/**
 * Every page needs a session (an HttpOnly, SameSite cookie); every change
 * (any method but GET/HEAD) also needs the session's CSRF token in its form
 * (the sign-in form, before any session, the token of its own cookie) and,
 * when the browser sends an Origin, this site's: checked here, before any
 * form is read. A route's permission is
 * checked here, so a hidden button is never the only guard: a forged post is
 * a 403, recorded in the audit log.
 */
/**
 * The form's CSRF token: its `_csrf` field, or, for the evidence upload (a
 * multipart form, read only once this guard has let it in, contract §30),
 * its action's query. An upload refused here closes its connection: the rest
 * of its body is never read.
 */
function formToken(request: DashboardRequest): unknown {
  if (request.is('multipart/form-data')) {
    request.res?.setHeader('Connection', 'close');
    return typeof request.query?._csrf === 'string' ? request.query._csrf : undefined;
  }
  return (request.body as Record<string, unknown> | undefined)?._csrf;
}

@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly identity: DashboardIdentity,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<DashboardRequest>();
    const targets = [context.getHandler(), context.getClass()];
    const changes = request.method !== 'GET' && request.method !== 'HEAD';
    if (changes && !sameOrigin(request)) throw new PageError(403, 'forbidden');
    if (this.reflector.getAllAndOverride<boolean>(ANONYMOUS, targets)) {
      // The sign-in form, before any session: its own double-submit token (a cookie and the same value in the form).
      const preToken = cookieOf(request, cookieName(request, SIGN_IN_COOKIE));
      if (changes && (!preToken || !sameSecret((request.body as Record<string, unknown> | undefined)?._csrf, preToken))) {
        throw new PageError(403, 'forbidden');
      }
      return true;
    }
    const token = cookieOf(request, cookieName(request, SESSION_COOKIE));
    const session = token ? await this.identity.session(token) : null;
    if (!session) {
      if (changes) throw new PageError(403, 'sessionEnded');
      throw new Redirect(`/sign-in?next=${encodeURIComponent(request.originalUrl)}`);
    }
    if (changes && !sameSecret(formToken(request), session.csrfToken)) {
      throw new PageError(403, 'forbidden');
    }
    // A session still signing in opens only its step's pages (and signing out): everything else waits for the second factor.
    const steps = this.reflector.getAllAndOverride<SessionStage[] | undefined>(SIGN_IN_STEP, targets) ?? ['signed-in'];
    if (!steps.includes(session.stage) && session.stage !== 'signed-in') {
      if (changes) throw new PageError(403, 'forbidden');
      throw new Redirect(STAGE_PAGES[session.stage]);
    }
    if (!steps.includes(session.stage)) {
      // A signed-in person posting to a step of the sign-in: nothing to do there.
      if (changes) throw new PageError(403, 'forbidden');
      throw new Redirect('/overview');
    }
    request.dashboard = session;
    request.sessionToken = token;
    const required = this.reflector.getAllAndOverride<{ permission: Permission; action: string } | undefined>(REQUIRES, targets);
    if (required && !can(session.user.role, required.permission)) {
      await this.identity.audit({
        ...actorOf(request),
        action: required.action,
        target: typeof request.params.id === 'string' ? request.params.id.slice(0, 200) : null,
        result: 'refused',
        detail: { reason: `role ${session.user.role}` },
      });
      throw new PageError(403, 'forbidden');
    }
    return true;
  }
}

/** A change whose Origin (when the browser sends one) is another site's is refused. */
function sameOrigin(request: Request): boolean {
  const origin = request.header('origin');
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === request.header('host');
  } catch {
    return false;
  }
}

/** Failures become pages: a redirect, a 403/404/503 sentence in the person's language, or a 500 that shows nothing inside. */
@Catch()
export class PageErrors implements ExceptionFilter {
  private readonly logger = new Logger('Dashboard');

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<DashboardRequest>();
    const response = host.switchToHttp().getResponse<Response>();
    // Failed halfway through a stream (an export): cut it, so that the download fails rather than looking complete.
    if (response.headersSent) {
      if (!response.writableEnded) response.destroy();
      return;
    }
    if (exception instanceof Redirect) {
      response.redirect(303, exception.location);
      return;
    }
    let status = 500;
    let text: keyof Texts = 'apiUnavailable';
    const clientError = httpStatusOf(exception);
    if (exception instanceof PageError) ({ status, text } = exception);
    else if (exception instanceof NotFoundException) [status, text] = [404, 'notFound'];
    // The body parser's refusals (too large, unreadable, another charset): the request's fault, said so.
    else if (clientError !== null) [status, text] = [clientError, clientError === 413 ? 'uploadTooLarge' : 'unreadable'];
    else if (exception instanceof PayinsApiError && (exception.status >= 500 || exception.status === 429)) status = 503;
    else if (isNetworkFailure(exception)) status = 503;
    else {
      const error =
        exception instanceof Error
          ? { type: exception.name, message: exception.message, stack: exception.stack }
          : { value: String(exception) };
      this.logger.error({ error, method: request.method, path: request.path }, 'unhandled error');
    }
    const language = languageOf(request);
    const t = TEXTS[language];
    if (status === 503) response.setHeader('Retry-After', '5');
    response
      .status(status)
      .set(DASHBOARD_HEADERS)
      .send(
        dashboardPage({
          language,
          title: t[text],
          user: request.dashboard?.user,
          csrfToken: request.dashboard?.csrfToken,
          body: `<h1 id="problem" data-status="${status}">${html(t[text])}</h1><p><a href="/payments">${t.back}</a></p>`,
        }),
      );
  }
}

function httpStatusOf(error: unknown): number | null {
  const status =
    (error as { status?: unknown; getStatus?: () => number } | null)?.getStatus?.() ?? (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

/** The payins API out of reach (refused, reset, timed out) or the dashboard's own database away: a 503, not a 500. */
function isNetworkFailure(error: unknown): boolean {
  // By name, not instanceof: fetch's errors come from Node's own realm (a test runner's sandbox has other classes).
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  if (name === 'TypeError' && typeof message === 'string' && /fetch failed/i.test(message)) return true;
  if (name === 'TimeoutError' || name === 'AbortError') return true;
  return isDatabaseUnavailable(error);
}

/** The page a list asks for (`?page=`): a positive number, 1 when absent or not one. */
export function pageOf(value: unknown): number {
  return typeof value === 'string' && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}
