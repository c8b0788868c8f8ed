import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { DashboardIdentity, IdentityError, isRole, Role } from '@pcs/dashboard-identity';
import { FormPipe, RoleForm, TeamMemberForm } from './forms';
import type { Response } from 'express';
import { teamPage } from './pages/areas';
import { DASHBOARD_HEADERS } from './pages/layout';
import { fill, TEXTS } from './pages/texts';
import { PayinsApi, UUID } from './payins-api';
import type { DashboardRequest } from './web';
import { actorOf, languageOf, PageError, Requires } from './web';
import { ownMerchant, text } from './area-forms';

/** The team: the business's people, adding one, and a new password for one (admins of the whole business). */
@Controller('team')
export class TeamController {
  constructor(
    private readonly api: PayinsApi,
    private readonly identity: DashboardIdentity,
  ) {}

  @Get()
  @Requires('manage-users', 'team:read')
  async show(@Req() request: DashboardRequest, @Res() response: Response): Promise<void> {
    await this.render(request, response);
  }

  private async render(request: DashboardRequest, response: Response, notice?: string, problem?: string, status = 200): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    if (user.merchantId) throw new PageError(403, 'forbidden');
    const [people, merchants, credentials] = await Promise.all([
      this.identity.usersOf(user.businessId),
      this.api.merchants(user),
      this.api.credentials(),
    ]);
    response
      .status(status)
      .set(DASHBOARD_HEADERS)
      .send(teamPage(languageOf(request), { user, csrfToken, people, merchants, credentials, notice, problem }));
  }

  @Post()
  @HttpCode(200)
  @Requires('manage-users', 'user:create')
  async add(@Req() request: DashboardRequest, @Res() response: Response, @Body(FormPipe) body: TeamMemberForm): Promise<void> {
    const { user } = request.dashboard!;
    if (user.merchantId) throw new PageError(403, 'forbidden');
    const t = TEXTS[languageOf(request)];
    const merchantId =
      body.merchantId === '' || body.merchantId === undefined ? null : await ownMerchant(this.api, request, body.merchantId);
    if (merchantId === undefined || !isRole(body.role)) throw new PageError(400, 'unreadable');
    const audit = {
      ...actorOf(request),
      action: 'user:create',
      target: text(body.email, 200),
    };
    try {
      const created = await this.identity.createUser({
        businessId: user.businessId,
        merchantId,
        email: text(body.email, 254),
        role: body.role,
      });
      await this.identity.audit({ ...audit, result: 'succeeded', detail: { role: created.role, merchantId } });
      // The password is shown once, on this answer (not in a URL, not in the audit log).
      await this.render(request, response, fill(t.personAdded, { password: created.password }));
    } catch (error) {
      if (!(error instanceof IdentityError)) throw error;
      await this.identity.audit({ ...audit, result: 'refused', detail: { reason: error.message } });
      await this.render(request, response, undefined, error.message, 400);
    }
  }

  /** Unlocks a person locked out by ten failures (contract §22), at once; audited. */
  @Post(':id/unlock')
  @HttpCode(200)
  @Requires('manage-users', 'user:unlock')
  async unlock(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const person = await this.member(request, id);
    await this.identity.unlock(person.userId);
    await this.identity.audit({ ...actorOf(request), action: 'user:unlock', target: person.email, result: 'succeeded' });
    await this.render(request, response, fill(TEXTS[languageOf(request)].unlocked, { email: person.email }));
  }

  /** Makes a person enrol a second factor again (a lost phone); their sessions end; audited. Not another admin's (the operator's). */
  @Post(':id/reset-mfa')
  @HttpCode(200)
  @Requires('manage-users', 'user:reset-mfa')
  async resetMfa(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const person = await this.member(request, id);
    if (await this.identity.isOrWasAdmin(person.userId)) return this.refuseAdminReset(request, response, 'user:reset-mfa', person.email);
    await this.identity.resetSecondFactor(person.userId);
    await this.identity.audit({ ...actorOf(request), action: 'user:reset-mfa', target: person.email, result: 'succeeded' });
    await this.render(request, response, fill(TEXTS[languageOf(request)].mfaReset, { email: person.email }));
  }

  /** Another person of the admin's business (never themselves: their own are the account page's), or 404. */
  private async member(request: DashboardRequest, id: string) {
    const { user } = request.dashboard!;
    if (user.merchantId || !UUID.test(id) || id === user.userId) throw new PageError(404, 'notFound');
    const person = await this.identity.memberOf(user.businessId, id);
    if (!person) throw new PageError(404, 'notFound');
    return person;
  }

  @Post(':id/reset-password')
  @HttpCode(200)
  @Requires('manage-users', 'user:reset-password')
  async reset(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const { user } = request.dashboard!;
    if (user.merchantId || !UUID.test(id) || id === user.userId) throw new PageError(404, 'notFound');
    // An admin resetting another admin could sign in as them (contract §27), or demote one first (§30): an admin, or one of the last
    // 30 days, is the operator's audited command only.
    const person = await this.member(request, id);
    if (await this.identity.isOrWasAdmin(person.userId))
      return this.refuseAdminReset(request, response, 'user:reset-password', person.email);
    const reset = await this.identity.resetPasswordOf(user.businessId, id);
    if (!reset) throw new PageError(404, 'notFound');
    await this.identity.audit({
      ...actorOf(request),
      action: 'user:reset-password',
      target: reset.email,
      result: 'succeeded',
    });
    await this.render(request, response, fill(TEXTS[languageOf(request)].passwordReset, { email: reset.email, password: reset.password }));
  }

  /** Disables a person (contract §27): their sessions end at once and they cannot sign in; never the last enabled admin. */
  @Post(':id/disable')
  @HttpCode(200)
  @Requires('manage-users', 'user:disable')
  async disable(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const person = await this.member(request, id);
    await this.changeStanding(
      request,
      response,
      person,
      'user:disable',
      { disabled: true },
      TEXTS[languageOf(request)].personDisabled,
      codeOf(request),
    );
  }

  /** Enables a disabled person again (their failures cleared); they sign in with their own password and second factor. */
  @Post(':id/enable')
  @HttpCode(200)
  @Requires('manage-users', 'user:enable')
  async enable(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const { user } = request.dashboard!;
    if (user.merchantId || !UUID.test(id) || id === user.userId) throw new PageError(404, 'notFound');
    const person = await this.identity.anyMemberOf(user.businessId, id);
    if (!person) throw new PageError(404, 'notFound');
    await this.changeStanding(request, response, person, 'user:enable', { disabled: false }, TEXTS[languageOf(request)].personEnabled);
  }

  /** Gives a person another role, from their next request on; never demotes the last enabled admin. */
  @Post(':id/role')
  @HttpCode(200)
  @Requires('manage-users', 'user:set-role')
  async role(
    @Req() request: DashboardRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Body(FormPipe) body: RoleForm,
  ): Promise<void> {
    const person = await this.member(request, id);
    if (!isRole(body.role)) throw new PageError(400, 'unreadable');
    await this.changeStanding(
      request,
      response,
      person,
      'user:set-role',
      { role: body.role },
      TEXTS[languageOf(request)].roleChanged,
      body.code,
    );
  }

  private async changeStanding(
    request: DashboardRequest,
    response: Response,
    person: { userId: string; email: string; role: string },
    action: string,
    change: { disabled?: boolean; role?: Role },
    done: string,
    code?: string,
  ): Promise<void> {
    const t = TEXTS[languageOf(request)];
    // Disabling or demoting an admin takes the acting admin's fresh code (contract §30), checked and audited by the identity.
    if (person.role === 'admin' && (change.disabled === true || (change.role !== undefined && change.role !== 'admin'))) {
      const { user } = request.dashboard!;
      const confirmed = await this.identity.confirmAsAdmin({
        businessId: user.businessId,
        merchantId: user.merchantId ?? '',
        email: user.email,
        code: typeof code === 'string' ? code.replace(/\s/g, '') : '',
        address: request.ip ?? 'unknown',
        action,
        target: person.email,
      });
      if (!confirmed) return this.render(request, response, undefined, t.adminChangeNeedsCode, 403);
    }
    try {
      await this.identity.changeStanding(person.userId, change);
    } catch (error) {
      if (!(error instanceof IdentityError)) throw error;
      await this.identity.audit({
        ...actorOf(request),
        action,
        target: person.email,
        result: 'refused',
        detail: { ...change, reason: error.message },
      });
      return this.render(request, response, undefined, t.lastAdmin, 409);
    }
    await this.identity.audit({ ...actorOf(request), action, target: person.email, result: 'succeeded', detail: { ...change } });
    await this.render(request, response, fill(done, { email: person.email, role: change.role ?? person.role }));
  }

  private async refuseAdminReset(request: DashboardRequest, response: Response, action: string, email: string): Promise<void> {
    await this.identity.audit({ ...actorOf(request), action, target: email, result: 'refused', detail: { reason: 'admin-on-admin' } });
    await this.render(request, response, undefined, TEXTS[languageOf(request)].adminResetByOperator, 403);
  }
}

/** The acting admin's code a standing change of an admin carries (the disable form's field). */
function codeOf(request: DashboardRequest): string | undefined {
  const code = (request.body as Record<string, unknown> | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
