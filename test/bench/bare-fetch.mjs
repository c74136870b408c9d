// Baseline of the contract issue's request figure: a bare Node script making the same GET as
// `transactions get` with the runtime's own fetch(), and printing the body.
// Usage: PAYCTL_API_KEY=zpk_test_0123456789abcdef node bare-fetch.mjs <full url>
const auth = Buffer.from(`${process.env.PAYCTL_API_KEY}:`).toString('base64');
try {
  const res = await fetch(process.argv[2], { headers: { Authorization: `Basic ${auth}`, Accept: 'application/json' } });
  process.stdout.write(await res.text());
  if (res.status !== 200) process.exitCode = 1;
} catch (err) {
  console.error(err.message);
  process.exitCode = 1;
}
