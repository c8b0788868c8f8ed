import { Module } from '@nestjs/common';
import { JobsModule } from '@pcs/jobs';
import { EventRecorder } from './event-recorder';

/** Recording events with the changes that cause them (contract §14); their delivery lives in notifications. */
@Module({ imports: [JobsModule], providers: [EventRecorder], exports: [EventRecorder] })
export class EventsModule {}
