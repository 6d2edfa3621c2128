import { SecretCipher } from '@custodian/secret-cipher';
import { Inject, Injectable } from '@nestjs/common';
import { LICENSE_KEY_SECRETS, RegisterConfig } from '../config/register-config';

/** Encrypts and decrypts licences' product keys with the register's LICENSE_KEY_SECRETS. */
@Injectable()
export class LicenseKeyCipher {
  readonly cipher: SecretCipher;

  constructor(@Inject(RegisterConfig) config: Pick<RegisterConfig, 'LICENSE_KEY_SECRETS'>) {
    this.cipher = SecretCipher.fromSetting(config.LICENSE_KEY_SECRETS, LICENSE_KEY_SECRETS);
  }
}
