import { DynamicModule, Global, Module } from '@nestjs/common';
import { RuntimeSettings } from './runtime-settings';

/** Makes the resolved RuntimeSettings injectable everywhere in an app. */
@Global()
@Module({})
export class RuntimeSettingsModule {
  static forRoot(settings: RuntimeSettings): DynamicModule {
    return { module: RuntimeSettingsModule, providers: [{ provide: RuntimeSettings, useValue: settings }], exports: [RuntimeSettings] };
  }
}
