import { generatePassword, hashPassword, verifyPassword } from './password';
import { passwordProblem } from './password-policy';

describe('dashboard passwords', () => {
  it('hashes with scrypt and a salt of its own, and verifies only the right password', async () => {
    const password = generatePassword();
    const [first, second] = await Promise.all([hashPassword(password), hashPassword(password)]);
    expect(first).toMatch(/^scrypt\$17\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain(password);
    expect(await verifyPassword(first, password)).toBe(true);
    expect(await verifyPassword(second, password)).toBe(true);
    expect(await verifyPassword(first, password + 'x')).toBe(false);
    expect(await verifyPassword(first, '')).toBe(false);
  });

  it('treats a malformed or absurdly costly stored hash as no match, without computing it', async () => {
    for (const stored of ['', 'plain', 'scrypt$17$8$1$salt', 'bcrypt$17$8$1$a$b', 'scrypt$30$8$1$AAAA$AAAA', 'scrypt$x$8$1$AAAA$AAAA']) {
      expect(await verifyPassword(stored, 'anything')).toBe(false);
    }
  });

  it('generates 20-character passwords without look-alike characters, each one within the password policy', () => {
    // 2,000 draws: without the redraw about 100 of them would have no digit.
    const passwords = new Set(Array.from({ length: 2000 }, generatePassword));
    expect(passwords.size).toBe(2000);
    for (const password of passwords) {
      expect(password).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{20}$/);
      expect(passwordProblem(password, 'someone@example.com')).toBeNull();
    }
  });
});
