import 'reflect-metadata';
import {
  Body,
  CanActivate,
  Controller,
  ExecutionContext,
  Get,
  HttpCode,
  Injectable,
  Module,
  Post,
  RawBodyRequest,
  UnauthorizedException,
  ValidationPipe,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { BusinessesModule, CredentialService } from '@pcs/businesses';
import { RuntimeSettings, RuntimeSettingsModule } from '@pcs/config';
import { ApiAuditTrail } from '@pcs/dashboard-identity';
import { DatabaseModule } from '@pcs/database';
import { createHttpApp, CurrentCaller, FoundationLayer, HttpFoundationModule, SignedController } from '@pcs/http';
import type { Caller } from '@pcs/kernel';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsString, IsUUID, MaxLength, Min } from 'class-validator';
import type { Request } from 'express';
import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { CREATION_INSERT, CreationContext, creationRow } from './creation-row';

/**
 * Two reference points for the benchmark (issue 23), each in its own process
 * (BENCH_VARIANT):
 *
 * - `floor`: the stack's floor — a minimal Nest app on Express with a
 *   class-validator DTO, the same HMAC check as the bare endpoint, and one
 *   INSERT through TypeORM. What NestJS + Express + class-validator + TypeORM
 *   cost before any code of ours.
 * - `foundation`: the same route inside our real HTTP foundation: every
 *   global middleware, guard (signature, rate limits), pipe, interceptor,
 *   filter, logger and metric the APIs install (createHttpApp +
 *   HttpFoundationModule), with the seeded credential.
 *
 * Both insert the row the bare endpoint inserts. BENCH_DATABASE_URL,
 * BENCH_SECRET, BENCH_CONTEXT and BENCH_PORT configure them.
 */
const context = JSON.parse(process.env.BENCH_CONTEXT as string) as CreationContext;

class CreationDto {
  @IsIn(['UYU', 'USD', 'ARS', 'BRL'])
  currency: string;

  @Type(() => Number)
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0.01)
  amount: number;

  @IsString()
  @MaxLength(128)
  externalReference: string;

  // The rest of the creation body the benchmark sends (operation 17's required fields), validated as plainly.
  @IsIn(['DEFAULT', 'TRANSFER'])
  payinType: string;

  @IsUUID('all')
  payerId: string;

  @IsBoolean()
  offSession: boolean;

  @IsInt()
  @Min(1)
  invoiceNumber: number;

  @IsIn(['URY', 'ARG', 'BRA'])
  country: string;
}

async function insert(dataSource: DataSource, body: CreationDto): Promise<{ paymentIntentId: string }> {
  const row = creationRow(context, body);
  await dataSource.query(CREATION_INSERT, row.values);
  return { paymentIntentId: row.id };
}

/** The floor's guard: the bare endpoint's HMAC check of the raw body, nothing else. */
@Injectable()
class HmacGuard implements CanActivate {
  canActivate(execution: ExecutionContext): boolean {
    const request = execution.switchToHttp().getRequest<RawBodyRequest<Request>>();
    if (request.path === '/health') return true;
    const expected = crypto
      .createHmac('sha256', process.env.BENCH_SECRET as string)
      .update(request.rawBody ?? Buffer.from('{}'))
      .digest();
    const given = Buffer.from(String(request.headers.signature ?? ''), 'hex');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new UnauthorizedException();
    return true;
  }
}

@Controller()
class FloorController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get('health')
  health(): { status: string } {
    return { status: 'ok' };
  }

  @Post()
  @HttpCode(200)
  create(@Body() body: CreationDto): Promise<{ paymentIntentId: string }> {
    return insert(this.dataSource, body);
  }
}

@Module({
  imports: [
    TypeOrmModule.forRoot({
      type: 'postgres',
      url: process.env.BENCH_DATABASE_URL,
      synchronize: false,
      logging: false,
      extra: { max: Number(process.env.BENCH_POOL_SIZE ?? 10) },
    }),
  ],
  controllers: [FloorController],
  providers: [{ provide: APP_GUARD, useClass: HmacGuard }],
})
class FloorModule {}

/** The same route, in our foundation: signed like every route, validated by our pipe, in our error shape. */
@SignedController('bench-creation', 'bench')
class FoundationController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Post()
  @HttpCode(200)
  create(@CurrentCaller() _caller: Caller, @Body() body: CreationDto): Promise<{ paymentIntentId: string }> {
    return insert(this.dataSource, body);
  }
}

function foundationModule(settings: RuntimeSettings, without: FoundationLayer | undefined) {
  @Module({
    imports: [
      RuntimeSettingsModule.forRoot(settings),
      DatabaseModule.forRoot({ url: settings.databaseUrl, poolSize: settings.poolSize }),
      HttpFoundationModule.forRoot({
        area: 'Payins',
        app: 'bench-foundation',
        logLevel: 'info',
        withoutRequestLog: without === 'request-log',
        imports: [BusinessesModule],
        credentials: CredentialService,
        audit: ApiAuditTrail,
      }),
    ],
    controllers: [FoundationController],
  })
  class FoundationModule {}
  return FoundationModule;
}

async function main(): Promise<void> {
  const port = Number(process.env.BENCH_PORT);
  if (process.env.BENCH_VARIANT === 'foundation') {
    // BENCH_WITHOUT: one global piece left out, to measure what it costs (the `layers` scenario).
    const without = process.env.BENCH_WITHOUT as FoundationLayer | undefined;
    const settings = new RuntimeSettings(
      process.env.BENCH_DATABASE_URL as string,
      Buffer.from(process.env.BENCH_MASTER_KEY as string, 'base64'),
      'http://localhost',
      Number(process.env.BENCH_POOL_SIZE ?? 10),
      undefined,
      undefined,
      undefined,
      undefined,
      {
        enabled: without !== 'rate-limits',
        readsPerSecond: 1_000_000,
        writesPerSecond: 1_000_000,
        addressPerSecond: 1_000_000,
        trustProxy: false,
      },
    );
    const app = await createHttpApp(
      foundationModule(settings, without),
      { area: 'Payins', title: 'bench', description: 'bench', version: '0', localUrl: 'http://localhost' },
      { without: without ? [without] : [] },
    );
    await app.listen(port, '127.0.0.1');
    return;
  }
  const app = await NestFactory.create<NestExpressApplication>(FloorModule, { rawBody: true, logger: ['error'] });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  await app.listen(port, '127.0.0.1');
}

void main();
