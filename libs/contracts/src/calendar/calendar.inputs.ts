import { IsString } from 'class-validator';

/**
 * Admin queue: whose feed the token of a feed URL opens. Any string: a malformed token is
 * refused as an unknown one is (not_found), never by the validator, which would tell them
 * apart.
 */
export class CalendarFeedTokenInput {
  @IsString() token!: string;
}
