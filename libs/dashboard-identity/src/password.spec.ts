import { generatePassword, hashCost, hashPassword, verifyPassword } from './password';
import { passwordProblem } from './password-policy';

describe('dashboard passwords', () => {
  it('hashes with scrypt and a salt of its own, and verifies only the right password', async () => {
    const password = generatePassword();
    const [first, second] = await Promise.all([hashPassword(password), hashPassword(password)]);
    expect(first).toMatch(new RegExp(`^scrypt\\$${hashCost()}\\$8\\$1\\$[\\w-]{22}\\$[\\w-]{43}$`));
    expect(first).not.toBe(second);
    expect(first).not.toContain(password);
    expect(await verifyPassword(first, password)).toBe(true);
    expect(await verifyPassword(second, password)).toBe(true);
    expect(await verifyPassword(first, password + 'x')).toBe(false);
    expect(await verifyPassword(first, '')).toBe(false);
  });

  it('hashes at OWASP’s cost (N=2^17) unless told otherwise; lower only under NODE_ENV=test, higher anywhere', () => {
    expect(hashCost({ NODE_ENV: 'production' })).toBe(17);
    expect(hashCost({})).toBe(17);
    expect(hashCost({ NODE_ENV: 'production', PASSWORD_HASH_LOG2N: '18' })).toBe(18);
    expect(() => hashCost({ NODE_ENV: 'production', PASSWORD_HASH_LOG2N: '12' })).toThrow('from 17 to 20');
    expect(() => hashCost({ PASSWORD_HASH_LOG2N: '16' })).toThrow('lower only under NODE_ENV=test');
    expect(hashCost({ NODE_ENV: 'test', PASSWORD_HASH_LOG2N: '12' })).toBe(12);
    for (const wrong of ['9', '21', '12.5', 'low']) expect(() => hashCost({ NODE_ENV: 'test', PASSWORD_HASH_LOG2N: wrong })).toThrow();
  });

  it('verifies a hash of another cost than the current one (raised or lowered since)', async () => {
    const password = generatePassword();
    const previous = process.env.PASSWORD_HASH_LOG2N;
    process.env.PASSWORD_HASH_LOG2N = '17';
    const atOwasp = await hashPassword(password);
    if (previous === undefined) delete process.env.PASSWORD_HASH_LOG2N;
    else process.env.PASSWORD_HASH_LOG2N = previous;
    expect(atOwasp).toMatch(/^scrypt\$17\$8\$1\$/);
    expect(await verifyPassword(atOwasp, password)).toBe(true);
    expect(await verifyPassword(atOwasp, password + 'x')).toBe(false);
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
