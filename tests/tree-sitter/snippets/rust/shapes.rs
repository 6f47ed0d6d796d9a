//! Shapes and their areas.
use std::collections::HashMap;
use std::fmt::{self, Display};
use std::{io::Write as _, sync::Arc};
use crate::units::Meters as M;
use super::*;

mod tests;

/// Largest accepted radius.
pub const MAX_RADIUS: f64 = 1e6;

static mut CREATED: usize = 0;

/// A point in the plane.
#[derive(Debug, Clone, Copy)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// The shapes we can measure.
#[derive(Debug)]
pub enum Shape {
    Circle { center: Point, radius: M },
    Square(Point, f64),
}

/// Shapes by name.
pub type Registry = HashMap<String, Arc<Shape>>;

/// Anything with an area.
pub trait Area: fmt::Debug {
    /// Area in square units.
    fn area(&self) -> f64;

    fn describe(&self) -> String {
        format!("area {}", self.area())
    }
}

impl Point {
    /// Creates a point.
    pub fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }

    // Distance from the origin.
    pub fn norm(&self) -> f64 {
        self.x.hypot(self.y)
    }
}

impl Area for Shape {
    fn area(&self) -> f64 {
        match self {
            Shape::Circle { radius, .. } => std::f64::consts::PI * radius.value() * radius.value(),
            Shape::Square(_, side) => side * side,
        }
    }
}

impl Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl<T: Area> Area for Vec<T> {
    fn area(&self) -> f64 {
        total_area(self)
    }
}

/// Sums the areas of all shapes.
pub fn total_area<T: Area>(shapes: &[T]) -> f64 {
    shapes.iter().map(|s| s.area()).sum()
}

pub mod geometry {
    use super::Point;

    /// The origin.
    pub fn origin() -> Point {
        Point::new(0.0, 0.0)
    }
}
