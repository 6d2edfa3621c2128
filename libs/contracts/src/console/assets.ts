import { TextField } from '../fields/field.decorators';

/** Body of POST /console/api/assets/scan: what the scanner typed. */
export class ScanBody {
  @TextField({
    min: 1,
    max: 200,
    notBlank: true,
    description: 'An asset tag or serial number as scanned; surrounding spaces are ignored.',
  })
  code!: string;
}
