import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * register.logins: the password of an e-mail, one across all its workspaces (a member row is
 * per workspace). Only an argon2id hash (PHC string, salt and parameters inside) is stored.
 */
@Entity({ schema: 'register', name: 'logins' })
@Check('logins_email_lower_check', 'email_lower = lower(email_lower)')
export class LoginEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'logins_pkey' })
  email_lower!: string;

  @Column({ type: 'text' })
  password_hash!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created_at!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at!: Date;
}
