// Test program for tests/symbolize/compare.sh: templates, namespaces,
// out-of-line members (DW_AT_specification), an anonymous namespace,
// lambdas and inlining. Compiled during make check.
#include <cstdio>

namespace tt {

template <typename T> struct Acc {
    T total = 0;
    inline void add(T v) { total += v * v; }
    T get() const;
};

template <typename T> T Acc<T>::get() const
{
    return total / 2;
}

template <typename T> __attribute__((noinline)) T sum(const T *v, int n)
{
    Acc<T> a;
    for (int i = 0; i < n; i++)
        a.add(v[i]);
    return a.get();
}

class Runner {
  public:
    explicit Runner(int n) : n_(n) {}
    int run(int seed);

  private:
    int n_;
};

namespace {
__attribute__((noinline)) int scale(int x)
{
    auto twice = [x](int y) { return x * y * 2; };
    return twice(x + 1) + twice(x - 1);
}
} // namespace

int Runner::run(int seed)
{
    int acc = seed;
    for (int i = 0; i < n_; i++)
        acc += scale(i ^ acc);
    return acc;
}

} // namespace tt

int main(int argc, char **)
{
    int vi[8];
    double vd[8];
    for (int i = 0; i < 8; i++) {
        vi[i] = i * argc;
        vd[i] = i * 0.5 * argc;
    }
    tt::Runner r(argc + 4);
    std::printf("%d %d %f\n", r.run(argc), tt::sum(vi, 8), tt::sum(vd, 8));
    return 0;
}
