import { ApiProperty } from '@nestjs/swagger';

/** Where an attempt with the facts asked would go (contract §26). */
export class RoutingSimulationResponse {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 0,
    description: 'The index of the rule that takes it; null: no rule (the method’s one processor)',
  })
  rule: number | null;
  @ApiProperty({ type: [String], example: ['DLOCAL', 'MERCADO_PAGO'], description: 'The processors in the order they would be tried' })
  processors: string[];
}

/** A processor account's success rates for one method in one country. */
export class ProcessorMethodHealthResponse {
  @ApiProperty({ example: 'VISA' }) paymentMethod: string;
  @ApiProperty({ example: 'URY' }) country: string;
  @ApiProperty({ type: Number, nullable: true, example: 0.97 }) successRate1h: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 0.95 }) successRate1d: number | null;
}

/** One processor account's health (contract §26). */
export class ProcessorHealthResponse {
  @ApiProperty({ example: 'DLOCAL' }) provider: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ enum: ['CLOSED', 'OPEN', 'HALF_OPEN'], description: 'Its circuit breaker in the process that answered' }) state: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.97,
    description: 'Approved share of the attempts that ended in the last hour; null: none ended',
  })
  successRate1h: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 0.95, description: 'The same over the last day' })
  successRate1d: number | null;
  @ApiProperty({ type: [ProcessorMethodHealthResponse], description: 'The same per method and country collected in the last day' })
  methods: ProcessorMethodHealthResponse[];
}

export class ProcessorsHealthResponse {
  @ApiProperty({ type: [ProcessorHealthResponse] }) processors: ProcessorHealthResponse[];
}
