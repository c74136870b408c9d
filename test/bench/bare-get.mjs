// Baseline for the request figure: the least a Node process can do to make the same GET the CLI
// makes (`transactions get <id>`) — HTTP Basic auth with the API key as user name, print the body.
// Usage: PAYCTL_API_KEY=zpk_test_0123456789abcdef node bare-get.mjs <full url>
import http from 'node:http';

const auth = Buffer.from(`${process.env.PAYCTL_API_KEY}:`).toString('base64');
http
  .get(process.argv[2], { headers: { Authorization: `Basic ${auth}`, Accept: 'application/json' } }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => {
      process.stdout.write(Buffer.concat(chunks));
      if (res.statusCode !== 200) process.exitCode = 1;
    });
  })
  .on('error', (err) => {
    console.error(err.message);
    process.exitCode = 1;
  });
