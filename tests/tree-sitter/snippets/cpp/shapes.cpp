// Shapes with virtual areas.
#include <memory>
#include <string>
#include <vector>
#include "geo/named.hpp"

namespace geo {

/// Numeric tolerance for comparisons.
constexpr double kEpsilon = 1e-9;

using Coord = double;

/// Abstract base of all shapes.
class Shape {
 public:
  virtual ~Shape() = default;
  /// Area in square units.
  virtual double area() const = 0;
  virtual std::string name() const { return "shape"; }
};

/// A circle given by its radius.
class Circle : public Shape, private detail::Named {
 public:
  explicit Circle(double r) : r_(r) {}
  double area() const override;
  std::string name() const override { return label("circle"); }

 private:
  double r_;
};

struct Point {
  Coord x, y;
};

enum class Color { Red, Green, Blue };

// Out-of-line definition.
double Circle::area() const { return kPi * r_ * r_; }

/// Sums the areas of all shapes.
double total_area(const std::vector<std::unique_ptr<Shape>>& shapes) {
  double sum = 0;
  for (const auto& s : shapes) sum += s->area();
  return sum;
}

template <typename T>
T clamp(T v, T lo, T hi) {
  return std::max(lo, std::min(v, hi));
}

}  // namespace geo

int main() {
  std::vector<std::unique_ptr<geo::Shape>> shapes;
  shapes.push_back(std::make_unique<geo::Circle>(2.0));
  return geo::total_area(shapes) > 0 ? 0 : 1;
}
