import {
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import type { Static } from '@sinclair/typebox';
import type { HoldingSchema, PersonSchema, PersonSummarySchema } from './schemas/people';

export const PERSON_STATUSES = ['active', 'inactive'] as const;
export type PersonStatus = (typeof PERSON_STATUSES)[number];

const STATUS_MESSAGE = `status must be one of ${PERSON_STATUSES.join(', ')}`;
const TEXT_MAX = 200;
const notBlank = (field: string) => Matches(/\S/, { message: `${field} must not be blank` });

/** Body of POST /people. */
export class CreatePersonInput {
  @IsString()
  @Length(1, TEXT_MAX, { message: `full_name must be between 1 and ${TEXT_MAX} characters` })
  @notBlank('full_name')
  full_name!: string;

  @IsOptional()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(320)
  email?: string | null;

  @IsOptional() @IsString() @MaxLength(64) employee_number?: string | null;

  @IsOptional() @IsString() @Length(1, TEXT_MAX) @notBlank('department') department?: string | null;

  @IsOptional() @IsString() @Length(1, TEXT_MAX) @notBlank('location') location?: string | null;

  @IsOptional() @IsIn(PERSON_STATUSES, { message: STATUS_MESSAGE }) status?: PersonStatus;
}

/** Body of PATCH /people/{id}: partial; `null` clears, but not full_name or status. */
export class UpdatePersonInput {
  @ValidateIf((o: UpdatePersonInput) => o.full_name !== undefined)
  @IsString()
  @Length(1, TEXT_MAX, { message: `full_name must be between 1 and ${TEXT_MAX} characters` })
  @notBlank('full_name')
  full_name?: string;

  @IsOptional()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(320)
  email?: string | null;

  @IsOptional() @IsString() @MaxLength(64) employee_number?: string | null;

  @IsOptional() @IsString() @Length(1, TEXT_MAX) @notBlank('department') department?: string | null;

  @IsOptional() @IsString() @Length(1, TEXT_MAX) @notBlank('location') location?: string | null;

  @ValidateIf((o: UpdatePersonInput) => o.status !== undefined)
  @IsIn(PERSON_STATUSES, { message: STATUS_MESSAGE })
  status?: PersonStatus;
}

/** A person as list results show it. */
export type PersonSummary = Static<typeof PersonSummarySchema>;

/** An asset a person holds now. */
export type Holding = Static<typeof HoldingSchema>;

/** A person as the single fetch shows it; also the body of create and update responses. */
export type PersonDetail = Static<typeof PersonSchema>;
