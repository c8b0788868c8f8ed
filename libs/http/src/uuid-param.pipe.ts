import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { InvalidRequestError } from '@pcs/kernel';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id in the path is a 400 naming the parameter (contract §2). */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (typeof value !== 'string' || !UUID.test(value)) {
      const name = metadata.data ?? 'id';
      throw new InvalidRequestError([name], `${name} must be a UUID`);
    }
    return value.toLowerCase();
  }
}
