/* The control core's self-test program (tests/rtl_mcu, docs/mcu.md): sorts 64
   pseudo-random words, takes a CRC-32 of them, exercises bytes, halfwords and
   multiplies, and writes the results at RESULTS for the test to check against
   its own C++ computation of the same. */
#include <stdint.h>

#define RESULTS ((volatile uint32_t *)0x8000)
#define N 64

static uint32_t data[N];
static int16_t halves[N];
static char text[] = "baresm control core: RV32I firmware self-test";

static uint32_t xorshift32(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

static void insertion_sort(int32_t *a, int n) {
  for (int i = 1; i < n; i++) {
    int32_t v = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

static uint32_t crc32(const uint8_t *p, uint32_t n) {
  uint32_t crc = 0xffffffffu;
  while (n--) {
    crc ^= *p++;
    for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
  }
  return ~crc;
}

int main(void) {
  uint32_t s = 0x12345678u;
  for (int i = 0; i < N; i++) data[i] = xorshift32(&s);
  insertion_sort((int32_t *)data, N);
  uint32_t crc = crc32((const uint8_t *)data, sizeof data);

  int32_t hsum = 0;  /* sign-extending halfword loads, halfword stores */
  for (int i = 0; i < N; i++) halves[i] = (int16_t)(data[i] >> 7);
  for (int i = 0; i < N; i++) hsum += halves[i];

  uint32_t len = 0, upper = 0;  /* bytes: length and an in-place upper-casing */
  for (char *c = text; *c; c++, len++)
    if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 'a' + 'A');
  upper = crc32((const uint8_t *)text, len);

  uint32_t prod = 1;  /* multiplies through __mulsi3 */
  for (uint32_t i = 1; i <= 12; i++) prod = prod * (i + (data[i] & 7));

  RESULTS[1] = crc;
  RESULTS[2] = (uint32_t)hsum;
  RESULTS[3] = len;
  RESULTS[4] = upper;
  RESULTS[5] = prod;
  for (int i = 0; i < N; i++) RESULTS[8 + i] = data[i];
  RESULTS[0] = 0x600dc0deu;
  return 0;
}
