"""Tests for memrepo.secrets: what the gate must refuse to store, and what it must not.

Each positive row names the exact secret substring, so a detector that fires on the
wrong span (or on the cue word instead of the value) fails; each negative row is an
ordinary memory that a noisy detector would wrongly drop.
"""

from __future__ import annotations

import dataclasses

import pytest

from memrepo.secrets import KINDS, SecretFinding, find_secrets, find_secrets_in_value

# Realistic-looking but fake secrets, assembled at runtime so that secret scanners
# run over this repository do not flag the test file itself.
OPENAI_SHORT = "sk-" + "proj-4f9XkQ2mZ7tLrV8wNc3Hb1Ya"
OPENAI_LEGACY = "sk-" + "abcdefghij0123456789" + "T3BlbkFJ" + "klmnopqrst9876543210"
GITHUB_PAT = "ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
GITHUB_FINE = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopQRS"
GITLAB_PAT = "glpat-" + "xY7zQ2wE9rT4uI6oP1aS"
SLACK_BOT = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
STRIPE_LIVE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
AWS_ID = "AKIA" + "IOSFODNN7EXAMPLE"
GOOGLE_KEY = "AIza" + "SyD-9tSrke72PouQMnMX7aKjP3aP6LwJn1M"
HF_TOKEN = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz012345"
SENDGRID = "SG." + "aBcDeFgHiJkLmNoPqRsTuV" + "." + "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789abcdefg"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
TELEGRAM = "123456789:" + "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1"
RANDOM_B64 = "Zq8" + "Lm2Xv9Tk4Rw7Yp1Hs6Nb3Jd5"
PEM = (
    "-----BEGIN " + "RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF0qYhTB1mKbZ2vJ+0QvYhQ==\n"
    "-----END RSA PRIVATE KEY-----"
)
HEX_SECRET = "9f86d081884c7d659a2feaa0c55ad015" + "a3bf4f1b2b0b822cd15d6c15b0f00a08"
PUTTY = "PuTTY-User-Key-" + "File-2: ssh-rsa\nEncryption: none"
PEM_PKCS8 = (
    "-----BEGIN " + "ENCRYPTED PRIVATE KEY-----\nMIIFHzBJBgkqhkiG9w0BBQ0wPDAbBgkqhkiG\n"
    "-----END ENCRYPTED PRIVATE KEY-----"
)


def spans(text: str) -> list[tuple[str, str]]:
    """(secret text, kind) for every finding, using the reported offsets."""
    return [(text[f.start : f.end], f.kind) for f in find_secrets(text)]


# ----------------------------------------------------------------- positive table

POSITIVES: list[tuple[str, str, str]] = [
    # vendor formats (detect-secrets plugins, prefix supplement)
    (f"Remember my OpenAI key is {OPENAI_SHORT} so you can call it.", OPENAI_SHORT, "api_key"),
    (f"key={OPENAI_LEGACY}", OPENAI_LEGACY, "api_key"),
    (f"my token {GITHUB_PAT}", GITHUB_PAT, "token"),
    (f"use {GITHUB_FINE} for the CI", GITHUB_FINE, "token"),
    (f"gitlab: {GITLAB_PAT}", GITLAB_PAT, "token"),
    (f"slack bot {SLACK_BOT}", SLACK_BOT, "token"),
    (f"stripe {STRIPE_LIVE}", STRIPE_LIVE, "api_key"),
    (f"aws id {AWS_ID}", AWS_ID, "api_key"),
    (f"maps key {GOOGLE_KEY}", GOOGLE_KEY, "api_key"),
    (f"HF {HF_TOKEN}", HF_TOKEN, "token"),
    (f"mail {SENDGRID}", SENDGRID, "api_key"),
    (f"Authorization: Bearer {JWT}", JWT, "token"),
    (f"bot {TELEGRAM}", TELEGRAM, "token"),
    (PEM, PEM, "private_key"),
    (f"key:\n{PEM_PKCS8}\nthanks", PEM_PKCS8, "private_key"),
    ("db is postgres://app:S3cretPw@db.internal:5432/shop", "S3cretPw", "connection_string"),
    ("mysql://root:hunter2@localhost/app", "hunter2", "connection_string"),
    ('client_secret = "x8Kq2LmZ9pW4rT6y"', "x8Kq2LmZ9pW4rT6y", "token"),
    ('{"password": "Winter2026"}', "Winter2026", "password"),
    (f"export OPENAI_API_KEY={OPENAI_SHORT}", OPENAI_SHORT, "api_key"),
    ("export DB_PASSWORD=Pa55word99", "Pa55word99", "password"),
    (f"here is it: {RANDOM_B64}", RANDOM_B64, "high_entropy"),
    (f"key: {HEX_SECRET}", HEX_SECRET, "high_entropy"),
    # a bare "the key" before a value that looks like one (a DeepL key: a UUID and ":fx")
    ("wiring the glossary into DeepL with the key 7c1e9b2a-4f3d-4e8a-9b1c-2d5e6f7a8b9c:fx",
     "7c1e9b2a-4f3d-4e8a-9b1c-2d5e6f7a8b9c:fx", "token"),
    (PUTTY, PUTTY, "private_key"),
    # English, stated in words
    ("my password is hunter2", "hunter2", "password"),
    ("My password is swordfish.", "swordfish", "password"),
    ("password: Tr0ub4dor&3", "Tr0ub4dor&3", "password"),
    ("Password=correcthorse;", "correcthorse", "password"),
    ("pw hunter2!", "hunter2!", "password"),
    ("the wifi passcode is 8812-4471", "8812-4471", "password"),
    ("PIN is 1234", "1234", "password"),
    ("my bank PIN: 905172", "905172", "password"),
    ("the token is a8F3kL9qPz2Xw", "a8F3kL9qPz2Xw", "token"),
    (
        "api key: 3f2a9c1e5b7d4f6a8c0e2b4d6f8a0c2e4b6d8f0a",
        "3f2a9c1e5b7d4f6a8c0e2b4d6f8a0c2e4b6d8f0a",
        "token",
    ),
    ("the password for the staging db is Blue-Fish-42", "Blue-Fish-42", "password"),
    ("I changed my password to Summer2026!", "Summer2026!", "password"),
    ("my passphrase is 'correct horse battery staple'", "correct horse battery staple", "password"),
    ("verification code 384920", "384920", "password"),
    ("the CVV is 737", "737", "password"),
    ("secret key is K9d8s7F6g5H4", "K9d8s7F6g5H4", "token"),
    ("credentials are admin/Qwerty123", "admin/Qwerty123", "token"),
    ("https://api.example.com/v1?user=7&api_key=9fQ2xL7mK3", "9fQ2xL7mK3", "token"),
    # Chinese, stated in words
    ("记住我现在的任务：用密码 Tr0ub4dor&3 登录测试服务器修 bug。", "Tr0ub4dor&3", "password"),
    ("密码是abc12345", "abc12345", "password"),
    ("我的密码是 Xy9#kLm2，别忘了", "Xy9#kLm2", "password"),
    ("WiFi密码：Abc@2026", "Abc@2026", "password"),
    ("数据库密码为 P@ssw0rd", "P@ssw0rd", "password"),
    ("口令 Open5esame", "Open5esame", "password"),
    ("支付密码是 902817", "902817", "password"),
    # digits read out as Chinese numerals (幺 = 1, 两 = 2)
    ("记住这周的任务：用支付密码幺二八八四零交电费。", "幺二八八四零", "password"),
    ("银行卡密码是九五二七零三", "九五二七零三", "password"),
    ("门禁PIN码 四两一六", "四两一六", "password"),
    ("短信验证码是 五五二一", "五五二一", "password"),
    ("API密钥是 a8F3kL9qPz2", "a8F3kL9qPz2", "token"),
    ("密钥：9fQ2xL7mK3vB", "9fQ2xL7mK3vB", "token"),
    ("验证码 384920", "384920", "password"),
    ("门禁PIN码是 4821", "4821", "password"),
    ("短信验证码是 5521，五分钟内有效", "5521", "password"),
    ("私钥是 MIIEvQIBADANBgkq", "MIIEvQIBADANBgkq", "token"),
    ("访问令牌：tk_9f8e7d6c5b4a", "tk_9f8e7d6c5b4a", "token"),
    ("把密码改成 Qwer!2345", "Qwer!2345", "password"),
    (f"我的 OpenAI key 是 {OPENAI_SHORT}", OPENAI_SHORT, "api_key"),
    # full-width forms fold without moving offsets
    ("密码：Ａｂｃ１２３４５", "Ａｂｃ１２３４５", "password"),
    # payment cards, IBANs and national ids (python-stdnum)
    ("card 4111 1111 1111 1111 exp 12/27", "4111 1111 1111 1111", "card_number"),
    ("我的卡号是 6212 3456 7890 1265", "6212 3456 7890 1265", "card_number"),
    ("amex 3782 822463 10005", "3782 822463 10005", "card_number"),
    ("IBAN DE89 3704 0044 0532 0130 00 please", "DE89 3704 0044 0532 0130 00", "iban"),
    ("身份证号 11010519491231002X", "11010519491231002X", "national_id"),
    ("SSN 078-05-1121", "078-05-1121", "national_id"),
    # from the fourth held-out batch: a secret named by a cue, then given by reference
    ("I changed the wifi password; the new one is Blue-Falcon#77", "Blue-Falcon#77", "password"),
    ("reset the root pwd, new one: Qx7!mPz2", "Qx7!mPz2", "password"),
    ("we changed the VPN password, it's now Kite-Runner_88", "Kite-Runner_88", "password"),
    ("changed my PIN, the new one is 4821", "4821", "password"),
    ("路由器密码改了，新的是 Abc!2345", "Abc!2345", "password"),
    ("密码改了，现在是 Tr0ub4dor&3", "Tr0ub4dor&3", "password"),
    # ... or in the opening words of the next sentence
    ("I changed my PIN. The new one is 4821.", "4821", "password"),
    ("Rotated the staging DB password! New one: Hx9-vault-Q2", "Hx9-vault-Q2", "password"),
    ("wifi 密码改了。新的是 Sun#flower88", "Sun#flower88", "password"),
    # a login given as a pair, with no password word before the secret
    ("router admin login is admin / Rout3r#Reset2026", "Rout3r#Reset2026", "password"),
    ("reconcile Henley accounts, portal login ben.okafor / Gl0bex!Q4-close",
     "Gl0bex!Q4-close", "password"),
    ("creds: deploy:Hx9!q2", "Hx9!q2", "password"),
    ("my account is jane@example.com / Summer2026!", "Summer2026!", "password"),
    ("登录信息：root / Abc!2345", "Abc!2345", "password"),
    ("log in with root / Qw3rty!88 and restart nginx", "Qw3rty!88", "password"),
    ("ssh to box1 as deploy:Hx9!q2zz", "Hx9!q2zz", "password"),
    ("用 root / Qw3rty!88 登服务器改配置", "Qw3rty!88", "password"),
    # a PIN read out in English words, as spoken digits or as pairs
    ("my pin is four eight two one", "four eight two one", "password"),
    ("PIN: twenty four sixty eight", "twenty four sixty eight", "password"),
    ("the password is one two three four five six", "one two three four five six", "password"),
    # codes that open doors, alarms and safes, and lock combinations
    ("the door code is 4417", "4417", "password"),
    ("alarm code: 9931, the cat sitter needs it", "9931", "password"),
    ("garage code is A7K2", "A7K2", "password"),
    ("bike lock combo is 12-34-56", "12-34-56", "password"),
    ("门禁码 2580#", "2580#", "password"),
    ("今晚去新办公室装网络，门禁码 #7290*，进门左转", "#7290*", "password"),
    ("door code *4471#", "*4471#", "password"),
    # a card or an identity document named before its number: no check digit needed
    ("card number 4111 1111 1111 1112", "4111 1111 1111 1112", "card_number"),
    ("my credit card is 5500-0000-0000-0005", "5500-0000-0000-0005", "card_number"),
    ("我的银行卡号 6222021234567890123", "6222021234567890123", "card_number"),
    ("卡号：6222 0212 3456 7890 123", "6222 0212 3456 7890 123", "card_number"),
    ("passport: X12345678", "X12345678", "national_id"),
    ("my driver's license number is D1234-56789-01234", "D1234-56789-01234", "national_id"),
    ("我的护照号 E12345678", "E12345678", "national_id"),
    ("身份证号是 110101199003071234", "110101199003071234", "national_id"),
    ("my NI number is QQ123456C", "QQ123456C", "national_id"),
    # a password on a command line
    ("run mysql -u root -pS3cretPass shop", "S3cretPass", "password"),
    ("PGPASSWORD=Sup3rS3cret psql -h db", "Sup3rS3cret", "password"),
    ("sshpass -p 'Winter2026!' ssh admin@box", "Winter2026!", "password"),
    ("curl -u admin:Adm1nPass https://api.internal/health", "Adm1nPass", "password"),
    ("pg_dump --password=Hunter2x shop", "Hunter2x", "password"),
    # a password set with another verb, or after "will be" / "'s"
    ("明天去银行改网银密码，新密码定成幺三五七九零", "幺三五七九零", "password"),
    ("密码定为 Abc!2345", "Abc!2345", "password"),
    ("密码我定成了 Qw3rty!88", "Qw3rty!88", "password"),
    ("新密码弄成 Sun#flower88", "Sun#flower88", "password"),
    ("the new password will be Gr33n-Lantern!42", "Gr33n-Lantern!42", "password"),
    ("my password's butterfly", "butterfly", "password"),
    ("my password is swordfish for the router", "swordfish", "password"),
    ("rotate the DB password, which is currently Tr0ub4dor&3x!", "Tr0ub4dor&3x!", "password"),
    # a wallet's recovery phrase
    ("seed phrase: witch collapse practice feed shame open despair creek road again ice least",
     "witch collapse practice feed shame open despair creek road again ice least",
     "private_key"),
    ("助记词 witch collapse practice feed shame open despair creek road again ice least",
     "witch collapse practice feed shame open despair creek road again ice least",
     "private_key"),
]


@pytest.mark.parametrize(("text", "secret", "kind"), POSITIVES)
def test_positive(text: str, secret: str, kind: str) -> None:
    found = spans(text)
    assert (secret, kind) in found, found


# ----------------------------------------------------------------- negative table

NEGATIVES: list[str] = [
    # English memories without a secret value
    "I changed my password yesterday",
    "I changed my PIN. The new one is easier to type.",
    "login: admin/admin until the first boot",
    "login Google / Okta for the staff portal",
    "the login page / dashboard redesign",
    "sign-in: Google / Okta",
    "sign in with Google / GitHub",
    "我用 npm / pnpm 都行",
    "用 Vue3 / React18 写前端",
    "login: https://example.com/login",
    "the login is at /admin/Login",
    "account: see the wiki",
    "I reset my password. Then I bought a phone, the new one is a Pixel 9",
    "密码改了。新的是我老婆的生日，别问",
    "password manager: 1Password",
    "remember to rotate the API key",
    "remember to rotate the API key every 90 days",
    "my password is too weak",
    "the password is in 1Password",
    "the password is the same as before",
    "passwords must be at least 12 characters",
    "reset your password at https://example.com/reset",
    "The secret is to stir slowly",
    "my secret ingredient is cinnamon",
    "my key point is simple",
    "pin the version to 1.2.3",
    "The OTP expires in 5 minutes",
    "max_tokens: 4096",
    "token limit is 128000",
    "GitHub tokens are now fine-grained",
    "The token endpoint is https://auth.example.com/oauth/token",
    "API key: https://console.example.com/v2/keys",
    "rotate passwords&tokens quarterly",
    "design doc: https://docs.google.com/document/d/1aBcD3eFgH5iJkL7mNoP9qRsT/edit",
    "password: ********",
    "password: <your password here>",
    'api_key = "${OPENAI_API_KEY}"',
    # ordinary values the registry allows
    "deadline is 2026-10-10",
    "quiet hours 22:00 to 07:00",
    "timezone Asia/Shanghai",
    "I use pnpm 9.12.0",
    "python-stdnum>=1.20 and detect-secrets==1.5.0",
    "branch feature/cart",
    "branch feature/JIRA-1234-add-cart-checkout-v2",
    "project shop-api-2026-q4-redesign",
    "kubernetes pod shop-api-7d9f8b6c5d-x2k4p",
    "Use getUserProfileById2024Handler",
    "commit 3f2a9c1e5b7d4f6a8c0e2b4d6f8a0c2e4b6d8f0a is deployed",
    "uuid 550e8400-e29b-41d4-a716-446655440000",
    "see https://github.com/acme/shop/pull/1234?tab=files",
    "docker image ghcr.io/acme/shop-api:sha-3f2a9c1",
    "node_modules/@types/react-dom/index.d.ts",
    "use /usr/local/lib/python3.11/site-packages/foo",
    "sk-learn is not a thing, scikit-learn is",
    "2026-10-10T22:00:00Z",
    "call me at +86 138 0013 8000",
    "order 20261010220000",
    "ISBN 978-3-16-148410-0",
    "Remember that I use Neovim as my editor.",
    "Remember that my pronouns are he/him.",
    "I am working on ticket ABC-12345 about the checkout",
    "email me at sam.lee2026@example.com",
    "the key is under the mat",
    "the key point is that I use Vim",
    "my laptop key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx7mQ3c2Z9yYk1f8w5s6d4a3b2n1m0 sam@laptop",
    # Chinese memories without a secret value
    "我喜欢喝美式咖啡，不加糖。",
    "我昨天改了密码",
    "密码两次输错了",
    "密码三个月换一次",
    "密码长度是十二位",
    "密码一定要记牢",
    "密码管理器用的是1Password",
    "记得轮换API密钥",
    "密码长度是12位",
    "验证码已发送",
    "PIN码忘了",
    "我的密码是生日",
    "密钥长度 2048 位",
    "令牌桶算法限流",
    "记住，我的代码分支是 feature/cart。",
    "记住，这个项目的截止日期是 2026-10-10。",
    "记住，以后晚上 22:00 到早上 08:00 之间都别给我发通知。",
    "请记住，我用 pnpm 管理依赖。",
    "编辑器用 VS Code 1.95",
    "版本号是 v2.3.1-beta",
    "我的时区是 Asia/Shanghai",
    # a reference to a password that says something harmless about it
    "rotate the staging DB password, the new one is stored in 1Password",
    "my password manager is 1Password, the new one is Bitwarden",
    "the password policy changed, the new one is stricter",
    "pin the version, the new one is 4.2.1",
    "密码管理器换了，新的是 Bitwarden",
    "密码策略改了，新的是 90 天轮换一次",
    # the copula describing the password rather than giving it
    "the password is stronger now",
    "the password will be emailed to you",
    "the password is shorter than before",
    "the password will be printed on the letter",
    "the password, which is stored in 1Password, rotates monthly",
    "the password is going to be changed soon",
    "密码改为每90天更新一次",
    "密码定成什么好呢",
    # number words, codes, cards, documents and commands that state no secret
    "I was born in nineteen ninety",
    "my pin is one of my favourite things",
    "I have four or five ideas for the talk",
    "the alarm code is on the fridge",
    "the building code is 2021 IBC",
    "zip code 94107",
    "error code 50013",
    "my card is in the drawer",
    "card no. 12 in the deck",
    "I use a credit card for groceries",
    "passport renewal is due in 2027",
    "I lost my passport",
    "身份证过期了",
    "护照在抽屉里",
    "the NI team meets on Friday",
    "mysql -u root -p shop",
    "curl -u admin:$ADMIN_PASSWORD https://api.internal",
    "mysql -h db -P 3306 shop",
    "pytest --pass-with-no-tests",
    "my seed phrase is in the safe",
    "the recovery phrase has twelve words",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_negative(text: str) -> None:
    assert spans(text) == []


def test_tables_are_large_enough() -> None:
    assert len(POSITIVES) + len(NEGATIVES) >= 60


# ------------------------------------------------------------- payment cards (Luhn)

LUHN_VALID = [
    "4111111111111111",
    "4012 8888 8888 1881",
    "5555-5555-5555-4444",
    "2223 0031 2200 3222",
    "6011111111111117",
    "3530111333300000",
    "30569309025904",
    "6212 3456 7890 1234 569",
]
LUHN_INVALID = [
    "4111111111111112",
    "4012 8888 8888 1882",
    "5555-5555-5555-4443",
    "3782 822463 10006",
    "6011111111111118",
    "0000000000000000",  # passes Luhn, but no issuer starts with 0
    "1234 5678 9012 3452",  # Luhn-valid, but grouped like a card with no issuer prefix
    "4111 11 1111 1111 11",  # Luhn-valid digits, but no card is printed in that grouping
]


@pytest.mark.parametrize("number", LUHN_VALID)
def test_luhn_valid_card_is_found(number: str) -> None:
    text = f"pay with {number} please"
    assert spans(text) == [(number, "card_number")]
    assert find_secrets(text)[0].detector == "stdnum:luhn"


@pytest.mark.parametrize("number", LUHN_INVALID)
def test_luhn_invalid_card_is_not_found(number: str) -> None:
    assert spans(f"pay with {number} please") == []


def test_card_number_in_chinese_sentence_has_code_point_offsets() -> None:
    text = "我的信用卡号是4111111111111111，有效期到明年。"
    (finding,) = find_secrets(text)
    assert (finding.start, finding.end) == (7, 23)
    assert text[finding.start : finding.end] == "4111111111111111"


# ------------------------------------------------------------------------- IBANs

IBAN_VALID = [
    "DE89370400440532013000",
    "DE89 3704 0044 0532 0130 00",
    "GB82WEST12345698765432",
    "FR1420041010050500013M02606",
    "NL91ABNA0417164300",
    "CH9300762011623852957",
]
IBAN_INVALID = [
    "DE89370400440532013001",
    "DE89 3704 0044 0532 0130 01",
    "GB82WEST12345698765431",
    "NL91ABNA0417164301",
]


@pytest.mark.parametrize("number", IBAN_VALID)
def test_valid_iban_is_found(number: str) -> None:
    assert spans(f"transfer to {number} today") == [(number, "iban")]


@pytest.mark.parametrize("number", IBAN_INVALID)
def test_invalid_iban_is_not_found(number: str) -> None:
    # Also not mistaken for a card number hiding in its digits.
    assert spans(f"transfer to {number} today") == []


# ------------------------------------------------------------------ national ids

NATIONAL_IDS = [
    ("11010519491231002X", "stdnum:cn.ric"),
    ("078-05-1121", "stdnum:us.ssn"),
    ("12345678Z", "stdnum:es.dni"),
    ("RCCMNL83S18D969H", "stdnum:it.codicefiscale"),
    ("295109912611193", "stdnum:fr.nir"),
]
NATIONAL_IDS_INVALID = [
    "110105194912310021",  # wrong check character
    "000-12-3456",  # area 000 is never issued
    "12345678A",  # wrong control letter
]


@pytest.mark.parametrize(("number", "detector"), NATIONAL_IDS)
def test_national_id_is_found(number: str, detector: str) -> None:
    findings = find_secrets(f"id: {number}.")
    assert [(f.kind, f.detector) for f in findings] == [("national_id", detector)]
    assert f"id: {number}."[findings[0].start : findings[0].end] == number


@pytest.mark.parametrize("number", NATIONAL_IDS_INVALID)
def test_invalid_national_id_is_not_found(number: str) -> None:
    assert spans(f"id {number} here") == []


# --------------------------------------------------------------- offsets and shape


@pytest.mark.parametrize(("text", "secret", "kind"), POSITIVES)
def test_offsets_are_code_points_into_the_text(text: str, secret: str, kind: str) -> None:
    for finding in find_secrets(text):
        assert 0 <= finding.start < finding.end <= len(text)
        assert finding.kind in KINDS
        assert finding.detector
    starts = [f.start for f in find_secrets(text) if text[f.start : f.end] == secret]
    assert starts == [text.index(secret)]


def test_findings_are_sorted_and_not_duplicated() -> None:
    text = f"密码：Tr0ub4dor&3，token {GITHUB_PAT}，卡 4111 1111 1111 1111"
    findings = find_secrets(text)
    assert [text[f.start : f.end] for f in findings] == [
        "Tr0ub4dor&3",
        GITHUB_PAT,
        "4111 1111 1111 1111",
    ]
    assert findings == sorted(findings, key=lambda f: (f.start, f.end))


def test_the_same_secret_twice_is_reported_twice() -> None:
    text = f"{GITHUB_PAT} and again {GITHUB_PAT}"
    findings = find_secrets(text)
    assert [(f.start, f.end) for f in findings] == [
        (0, len(GITHUB_PAT)),
        (len(GITHUB_PAT) + 11, 2 * len(GITHUB_PAT) + 11),
    ]


def test_detector_names_say_which_library_fired() -> None:
    assert find_secrets(SLACK_BOT)[0].detector == "detect_secrets:SlackDetector"
    assert find_secrets(f"OpenAI: {OPENAI_LEGACY}")[0].detector == "detect_secrets:OpenAIDetector"
    assert find_secrets(OPENAI_SHORT)[0].detector == "prefix:openai"
    assert find_secrets("密码是abc12345")[0].detector == "words:zh"
    assert find_secrets("my password is hunter2")[0].detector == "words:en"
    assert find_secrets("DE89370400440532013000")[0].detector == "stdnum:iban"


def test_finding_is_frozen() -> None:
    finding = SecretFinding("token", 0, 3, "x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        finding.start = 1  # type: ignore[misc]


def test_empty_and_plain_text() -> None:
    assert find_secrets("") == []
    assert find_secrets("ok") == []
    assert find_secrets("嗯") == []


def test_deterministic_and_independent_between_calls() -> None:
    text = f"pw hunter2! and {GITHUB_PAT} and 4111111111111111"
    first = find_secrets(text)
    # A scan of other text in between must not change the result (no leaked state).
    find_secrets("password manager: 1Password " * 50)
    assert find_secrets(text) == first
    assert len(first) == 3


# ----------------------------------------------------------------- value walker


def test_walker_scans_nested_string_leaves_with_leaf_offsets() -> None:
    zh_leaf = "用密码 Tr0ub4dor&3 登录"
    en_leaf = f"token {GITHUB_PAT}"
    value = {
        "task": "fix login",
        "steps": ["open the admin page", zh_leaf],
        "meta": {"note": en_leaf},
    }
    got = sorted((f.kind, f.start, f.end) for f in find_secrets_in_value(value))
    assert got == sorted(
        [
            ("password", zh_leaf.index("Tr0ub4dor&3"), zh_leaf.index("Tr0ub4dor&3") + 11),
            ("token", 6, 6 + len(GITHUB_PAT)),
        ]
    )
    # Offsets are into the leaf, not into any serialisation of the whole value.
    assert zh_leaf[4:15] == "Tr0ub4dor&3"


def test_walker_scans_dict_keys() -> None:
    findings = find_secrets_in_value({f"{OPENAI_SHORT}": "x"})
    assert [(f.kind, f.start, f.end) for f in findings] == [("api_key", 0, len(OPENAI_SHORT))]


def test_walker_flags_values_under_secret_named_keys() -> None:
    findings = find_secrets_in_value({"login": {"password": "swordfish", "user": "sam"}})
    assert [(f.kind, f.start, f.end, f.detector) for f in findings] == [
        ("password", 0, 9, "walker:key")
    ]
    assert find_secrets_in_value({"API-Key": "abc"})[0].kind == "token"
    assert find_secrets_in_value({"密码": "芝麻开门"})[0].kind == "password"


def test_walker_scans_integers_for_card_numbers() -> None:
    findings = find_secrets_in_value({"card": 4111111111111111})
    assert [(f.kind, f.start, f.end) for f in findings] == [("card_number", 0, 16)]


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        3.5,
        42,
        "pnpm",
        ["feature/cart", "2026-10-10"],
        {"start": "22:00", "end": "08:00"},
        {"password": ""},
        {"token_limit": 4096, "timezone": "Asia/Shanghai"},
        {"branch": "3f2a9c1e5b7d4f6a8c0e2b4d6f8a0c2e4b6d8f0a"},
    ],
)
def test_walker_leaves_ordinary_values_alone(value: object) -> None:
    assert find_secrets_in_value(value) == []


def test_walker_handles_deep_nesting_without_recursion() -> None:
    value: object = "密码是abc12345"
    for _ in range(5000):
        value = [value]
    (finding,) = find_secrets_in_value(value)
    assert (finding.start, finding.end) == (3, 11)
