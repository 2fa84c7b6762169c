// diskpulsed: placeholder until the daemon lands (issue 2).
#include <cstdio>
int main() { std::puts("diskpulsed: not yet"); return 1; }
